// SPDX-License-Identifier: GPL-3.0-or-later
// The layers of the model imported last (io/model_layers.h) and the one the views show. Selecting a layer
// puts its positional encoding into the scenario as one undo step: RoPE with that layer's base and scaling
// (the import's RoPE parameters when the layer has the model's own scaling, the default RoPE with the
// layer's base otherwise: Gemma 3's local layers), or NoPE for a layer without positions (Llama 4, SmolLM3).
// The layer's mask goes with it: the causal mask, narrowed to the layer's sliding window or chunks
// (Scenario::window), which every view draws; and its attention temperature (Llama 4), which the logits
// and weights apply.
// The window places the panel (layers_panel.h) in its Layers dock.
#pragma once

#include "io/model_layers.h"
#include "model/session.h"

#include <QObject>
#include <QString>

#include <vector>

namespace posatlas::ui {

class ScenarioModel;

// `current` with the positional encoding of `layer`: RoPE from `base` (the import's RoPE parameters)
// with the layer's base, type and factor, or NoPE with the base's head dimension; and with its mask
// (causal, narrowed to its sliding window or chunks) and attention temperature.
Scenario layer_scenario(const Scenario& current, const RopeParams& base, const LayerAnatomy& layer);

// True when the layers differ in attention span or positional encoding (more than one group).
bool layers_differ(const std::vector<LayerAnatomy>& layers);

// How far back position information reaches at the query position `q` after k = 1 … L layers
// (q - receptive_field_start(layers, k, q)).
std::vector<std::int64_t> receptive_reach(const std::vector<LayerAnatomy>& layers, std::int64_t q);

class LayersController : public QObject
{
    Q_OBJECT
public:
    explicit LayersController(ScenarioModel* model, QObject* parent = nullptr);

    // A new model: its layers and the RoPE parameters of its import; no layer selected. Empty layers: none.
    void setLayers(const QString& model, const std::vector<LayerAnatomy>& layers, const RopeParams& base);
    void clear();

    // Applies layer `index`'s positional encoding (one undo step). False when out of range or refused.
    bool selectLayer(int index);

    const std::vector<LayerAnatomy>& layers() const { return m_state.layers; }
    const QString& modelName() const { return m_state.model; }
    const RopeParams& base() const { return m_state.base; }
    // The layer the scenario shows, or -1 (none selected, or the scenario changed since).
    int selected() const { return m_state.selected; }

    // What a session keeps; nullopt when there are no layers.
    std::optional<LayersState> state() const;
    // Restores a session's layers (nullopt: none). The selection stays only when the scenario still
    // shows that layer.
    void restore(const std::optional<LayersState>& state);

signals:
    void layersChanged();    // a new model, or none
    void selectionChanged(); // the selected layer changed

private:
    void onScenarioChanged();
    bool shows(int index) const;

    ScenarioModel* m_model;
    LayersState m_state;
    int m_previous = -1; // the layer selected before the current one (an undo brings it back)
};

} // namespace posatlas::ui

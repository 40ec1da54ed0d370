// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/layers_controller.h"

#include "methods/nope/nope.h"
#include "model/scenario_model.h"

#include <QCoreApplication>

namespace posatlas::ui {

Scenario layer_scenario(const Scenario& current, const RopeParams& base, const LayerAnatomy& layer)
{
    Scenario s = current;
    // The layer's mask (masking_utils: every decoder layer is causal; a sliding window of W or chunks
    // of C narrow it), drawn by every view.
    s.causal = true;
    const bool narrowed = layer.attention != LayerAttention::Global && layer.span > 0;
    s.window = narrowed ? layer.attention : LayerAttention::Global;
    if (narrowed)
        s.window_span = layer.span;
    // Llama 4's temperature on its NoPE layers (Llama4TextAttention.forward).
    s.attn_temperature_tuning = layer.temperature;
    if (layer.temperature) {
        s.floor_scale = layer.floor_scale;
        s.attn_scale = layer.attn_scale;
    }
    if (!layer.rope) {
        // modeling_llama4.py / modeling_smollm3.py: the layer skips apply_rotary_pos_emb.
        s.method = kNoPE;
        s.params<NopeParams>().head_dim = base.head_dim;
        return s;
    }
    s.method = RopeParams::kMethod;
    RopeParams p = base;
    const RopeType type = parse_rope_type(layer.rope_type).value_or(RopeType::Default);
    p.rope_theta = layer.rope_theta;
    if (type != base.rope_type || layer.rope_factor != base.factor) {
        // A layer with a rotary embedding of its own (Gemma 3's local layers: default RoPE with
        // rope_local_base_freq, modeling_gemma3.py Gemma3TextModel.rotary_emb_local).
        p.rope_type = type;
        p.factor = type == RopeType::Default ? 1.0 : layer.rope_factor;
    }
    s.params<RopeParams>() = p;
    return s;
}

bool layers_differ(const std::vector<LayerAnatomy>& layers)
{
    return group_layers(layers).size() > 1;
}

std::vector<std::int64_t> receptive_reach(const std::vector<LayerAnatomy>& layers, std::int64_t q)
{
    std::vector<std::int64_t> reach;
    reach.reserve(layers.size());
    for (int k = 1; k <= static_cast<int>(layers.size()); ++k)
        reach.push_back(q - receptive_field_start(layers, k, q));
    return reach;
}

LayersController::LayersController(ScenarioModel* model, QObject* parent) : QObject(parent), m_model(model)
{
    connect(m_model, &ScenarioModel::scenarioChanged, this, &LayersController::onScenarioChanged);
}

void LayersController::setLayers(const QString& model, const std::vector<LayerAnatomy>& layers,
                                 const RopeParams& base)
{
    m_state = LayersState{model, layers, base, -1};
    m_previous = -1;
    emit layersChanged();
    emit selectionChanged();
}

void LayersController::clear()
{
    if (m_state.layers.empty() && m_state.model.isEmpty())
        return;
    setLayers({}, {}, RopeParams{});
}

bool LayersController::shows(int index) const
{
    if (index < 0 || index >= static_cast<int>(m_state.layers.size()))
        return false;
    const Scenario& now = m_model->scenario();
    return layer_scenario(now, m_state.base, m_state.layers[static_cast<std::size_t>(index)]) == now;
}

bool LayersController::selectLayer(int index)
{
    if (index < 0 || index >= static_cast<int>(m_state.layers.size()))
        return false;
    const Scenario s =
        layer_scenario(m_model->scenario(), m_state.base, m_state.layers[static_cast<std::size_t>(index)]);
    const int before = m_state.selected;
    // Selected first: the scenario's change finds it shown.
    m_state.selected = index;
    if (!m_model->setScenario(
            s, QCoreApplication::translate("posatlas::ui::LayersPanel", "Show layer %1").arg(index + 1))) {
        m_state.selected = before;
        return false;
    }
    if (before != index) {
        m_previous = before;
        emit selectionChanged();
    }
    return true;
}

void LayersController::onScenarioChanged()
{
    if (m_state.selected < 0 || shows(m_state.selected))
        return;
    // An undo of a selection shows the layer selected before it; any other change shows no layer.
    const int now = shows(m_previous) ? m_previous : -1;
    m_previous = -1;
    m_state.selected = now;
    emit selectionChanged();
}

std::optional<LayersState> LayersController::state() const
{
    if (m_state.layers.empty())
        return std::nullopt;
    return m_state;
}

void LayersController::restore(const std::optional<LayersState>& state)
{
    if (!state) {
        clear();
        return;
    }
    m_state = *state;
    m_previous = -1;
    if (!shows(m_state.selected))
        m_state.selected = -1;
    emit layersChanged();
    emit selectionChanged();
}

} // namespace posatlas::ui

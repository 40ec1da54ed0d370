// SPDX-License-Identifier: GPL-3.0-or-later
// Session files (.posatlas.json): the method, every parameter, the views and their settings, so that
// opening one shows exactly the same figures, in the GUI or through `posatlas export --session`.
//
// Format: {"format": "posatlas-session", "version": 1, "scenario": {...scenario_to_json...},
//          "views": {"visible": ["heatmap", ...], "current": "heatmap", "settings": {...}},
//          "figure": {"colormap": "viridis", ...},
//          "explorer": {"model": {...rope...}, "name": "...", "variants": [{"kind": "yarn", "label": "...",
//                       "rope": {...}}], "target_length": N, "current_length": N, "tab": 0}}
// "views.current" and "explorer" are optional (autosaves carry them; older readers ignore them), as is
// "views.token_layout" (true / false: the Token layout dock shown; absent: it follows the method).
// A file whose version is newer than kSessionVersion, or that is not a session, gets a clear
// SessionError; older versions are upgraded when a reader exists (version 1 is the first).
#pragma once

#include "export/figure_export.h"
#include "io/input_file.h"
#include "io/model_layers.h"
#include "io/scenario_json.h"
#include "io/unknown_keys.h"
#include "jobs/view_jobs.h"
#include "scenario/params.h"
#include "views/colormap.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <map>
#include <stdexcept>
#include <vector>

namespace posatlas::ui {

using posatlas::kSessionVersion; // io/scenario_json.h: the app and the lab write sessions

// A session file that cannot be used. An InputFileError, so the command line and the GUI report it like
// any other bad input file.
class SessionError : public InputFileError
{
public:
    using InputFileError::InputFileError;
};

// Largest session file read (a session is a few kB; LongRoPE factor lists make it longer, never MiBs).
inline constexpr qint64 kMaxSessionBytes = qint64{64} << 20;

// The context-extension explorer's state: its base model, the compared variants (kind by its stable id,
// see explorer_model.h variant_kind_id), the target and current lengths and the tab shown.
struct ExplorerState {
    struct Variant {
        QString kind;
        QString label;
        RopeParams params;
        // The factor stays when the target changes (else it follows it). Unset in sessions written before
        // factors followed the target: the explorer then pins the factors that differ from T / L.
        std::optional<bool> factor_pinned;
    };
    RopeParams model;
    QString name;
    std::vector<Variant> variants;
    std::int64_t target_length = 0;
    std::int64_t current_length = 0;
    int tab = 0;
};

// The layers of the imported model (io/model_layers.h), the RoPE parameters of its import, and the layer
// the views show (-1: none). Format: {"model": "...", "selected": 5, "base": {...rope...},
// "anatomy": [{"attention": "sliding_attention", "span": 1024, "rope": true, "rope_theta": 10000,
// "rope_type": "default", "rope_factor": 1, "temperature": false, "floor_scale": 0, "attn_scale": 0}, ...]}.
struct LayersState {
    QString model;
    std::vector<LayerAnatomy> layers;
    RopeParams base;
    int selected = -1;

    bool operator==(const LayersState&) const = default;
};
// Most layers a session's "layers.anatomy" holds (DeepSeek-V3 has 61, the largest models a few hundred).
inline constexpr int kMaxSessionLayers = 1024;

struct Session {
    Scenario scenario;
    ViewSettings settings;
    std::optional<Colormap> colormap; // nullopt: automatic (diverging for signed data, viridis otherwise)
    QStringList visible_views{QStringLiteral("heatmap"), QStringLiteral("curves"), QStringLiteral("rotation"),
                              QStringLiteral("spectrum")};
    QString current_view;                  // the view in front ("" = not recorded)
    std::optional<bool> token_layout;      // the Token layout dock shown (nullopt: follows the method)
    std::optional<ExplorerState> explorer; // only when the explorer was open
    std::optional<LayersState> layers;     // only when the model has per-layer anatomy
};

QString view_kind_id(ViewKind k);                           // "heatmap", "curves", "rotation", "spectrum"
std::optional<ViewKind> parse_view_kind(const QString& id); // also accepts "decay" for curves

// A file the session's scenario names (queries, keys, a method's table) that does not exist.
struct MissingFile {
    std::string key; // the session key: "scenario.content.queries", "scenario.learned.table_path"
    QString path;    // as resolved (absolute when the session gave it so)
};

// What session_from_json noticed without refusing the file, and how it treats missing files.
struct SessionReadReport {
    // In: a file the scenario names that does not exist is not an error (crash recovery: the drive may
    // be unmounted): it is listed in missing_files and its part of the scenario takes the default (the
    // seeded content instead of both queries and keys files, the seeded table instead of a table file).
    bool allow_missing_files = false;
    // In: a file to read instead of one the session names (the path as resolved -> the replacement).
    std::map<QString, QString> replacements;
    // Out: keys the reader does not know, at any level, each with the nearest valid key. They are
    // ignored; a lesson refuses them, the command line and the window warn.
    std::vector<UnknownKey> unknown_keys;
    std::vector<MissingFile> missing_files;
};

QByteArray session_to_json(const Session& s);
// Throws SessionError with a message naming the problem (not JSON, wrong format, newer version, a key
// of the wrong type). Validates the scenario (ParameterError is reported as a SessionError naming the
// session key, "scenario.rope.head_dim must be ..."). A relative learned-table path is resolved against
// `base_dir` when one is given (load_session() passes the session file's folder). `report`: see
// SessionReadReport (null: unknown keys are ignored, a missing file is an error).
Session session_from_json(const QByteArray& bytes, const QString& base_dir = {},
                          SessionReadReport* report = nullptr);

// File helpers: atomic write (write_file_atomically, io/safe_write.h); read with the path in every error
// message. Only regular files are read (a FIFO or a device is refused, see read_input_file()), at most
// kMaxSessionBytes.
void save_session(const Session& s, const QString& path);
Session load_session(const QString& path, SessionReadReport* report = nullptr);

// ---- Shared by `posatlas export` and the GUI's File > Export figure, so both write the same file.

// The metadata of an exported figure: title = the figure's title; description = the one-line
// scenario caption, then "\nPosAtlas scenario: " and the scenario as compact JSON (enough to remake
// the figure).
QString figure_description(const Scenario& s);
void set_figure_metadata(FigureExportOptions& options, const Figure& figure, const Scenario& s);
// The view settings an export computes with: the heatmap is computed at the figure's device
// resolution (size * dpi / 96, at most 4096 per side), not at the on-screen widget's.
ViewSettings export_view_settings(ViewSettings settings, const FigureExportOptions& options);

} // namespace posatlas::ui

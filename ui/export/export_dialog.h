// SPDX-License-Identifier: GPL-3.0-or-later
// File > Export figure…: which views, the file, its format (PNG, SVG, PDF; or the view's numbers as CSV
// or JSON), size (with presets for
// screens, slides and paper columns), PNG resolution, theme, font scale and an optional caption. The
// dialog only collects a FigureExportRequest; SessionActions::exportFigures() writes the files, so the
// same request can be run without the dialog (tests, scripts).
#pragma once

#include "export/figure_export.h"
#include "jobs/view_jobs.h"

#include <QDialog>
#include <QList>
#include <QString>
#include <QStringList>

#include <array>
#include <functional>
#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace posatlas::ui {

struct FigureExportRequest {
    QList<ViewKind> views{ViewKind::Heatmap};
    QString path;                // the file; with several views, the stem of one file per view
    FigureExportOptions options; // title and description are filled in per view when exporting
};

// One path per view: `path` itself for a single view; "<dir>/<base>-<view>.<ext>" for several
// ("fig.svg" -> "fig-heatmap.svg", "fig-curves.svg").
QStringList figure_export_paths(const QString& path, const QList<ViewKind>& views);

// Size presets of the dialog, in CSS pixels (1/96 in). font_scale 0 leaves the font scale alone.
struct FigureSizePreset {
    QString label;
    int width = 0, height = 0;
    double font_scale = 0.0;
};
QList<FigureSizePreset> figure_size_presets();

class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    // `current`: the view checked at first; `caption`: the suggested caption (scenario_caption).
    ExportDialog(ViewKind current, const QString& caption, QWidget* parent = nullptr);

    // Exports one figure that is not a view (a dock's, e.g. the token layout): the views' boxes give way
    // to the figure's `name`, the file is named after `stem`, and request().views stays empty.
    void setSingleFigure(const QString& name, const QString& stem);
    bool isSingleFigure() const { return m_singleFigure != nullptr; }

    // Restores earlier choices (the views are kept as given; the caption text only if non-empty).
    void setRequest(const FigureExportRequest& request);
    // Restores this run's earlier choices (setRequest) with the caption, when it was on, describing today's
    // scenario (the caption the dialog was made with), not the one exported then; a single figure's
    // request has no views.
    void restoreChoices(FigureExportRequest previous);
    // Shows the dialog until `write` succeeds or the user cancels. Each accepted request is written under
    // a wait cursor; an ExportError is shown in a warning titled `failure`, and the dialog comes back with
    // the user's choices (to fix the path or the size and retry). Returns the request written; nullopt when
    // the user cancelled.
    std::optional<FigureExportRequest>
    execUntilWritten(const QString& failure, const std::function<void(const FigureExportRequest&)>& write);
    // What the dialog shows now. The path always ends in .png, .svg, .pdf, .csv or .json: the format's
    // extension is appended when the name has none of these.
    FigureExportRequest request() const;

    // Widgets, for tests and screenshots.
    QCheckBox* viewCheck(ViewKind kind) const { return m_viewChecks[static_cast<std::size_t>(kind)]; }
    QLineEdit* fileEdit() const { return m_file; }
    QComboBox* formatCombo() const { return m_format; }
    QComboBox* presetCombo() const { return m_preset; }
    QSpinBox* widthSpin() const { return m_width; }
    QSpinBox* heightSpin() const { return m_height; }
    QSpinBox* dpiSpin() const { return m_dpi; }
    QComboBox* themeCombo() const { return m_theme; }
    QDoubleSpinBox* fontScaleSpin() const { return m_fontScale; }
    QCheckBox* captionCheck() const { return m_captionOn; }
    QLineEdit* captionEdit() const { return m_caption; }

public slots:
    void accept() override;

private:
    void browse();
    void formatChosen();
    void fileEdited();
    void presetChosen();
    void sizeEdited();
    void updateSummary();
    QString extension() const; // "png", "svg", "pdf", "csv" or "json" of the format combo
    bool isDataFormat() const; // csv or json: the view's numbers, not a figure
    void updateEnabled();      // the options the format uses

    std::array<QCheckBox*, kViewKindCount> m_viewChecks{};
    QLineEdit* m_file;
    QComboBox* m_format;
    QComboBox* m_preset;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QSpinBox* m_dpi;
    QComboBox* m_theme;
    QDoubleSpinBox* m_fontScale;
    QCheckBox* m_captionOn;
    QLineEdit* m_caption;
    QLabel* m_summary;
    QHBoxLayout* m_viewsRow;
    QLabel* m_singleFigure = nullptr; // setSingleFigure's name, in place of the views' boxes
    QString m_suggestedCaption;       // the caption the dialog was made with (today's scenario)
    QString m_confirmedPath;          // chosen in the file dialog, which already asked about overwriting
};

} // namespace posatlas::ui

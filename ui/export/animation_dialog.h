// SPDX-License-Identifier: GPL-3.0-or-later
// File > Export Animation…: what moves (a numeric registry field of the current method or a common one,
// or the rotation's query / key position when the rotation view is current), from, to, linear or log
// steps, frame count, frames per second, size and resolution as a still figure, format (MP4, GIF,
// animated PNG) and file. A preview plays the first frames and is recomputed (debounced) when a setting
// changes; the export runs off the GUI thread (export/animation_run.h) with a progress bar and Cancel.
// A request that check_animation_request refuses shows its message under the form, naming the parameter
// and its allowed range, and disables Export; nothing else changes.
#pragma once

#include "export/animation_export.h"

#include <QDialog>
#include <QString>
#include <QTimer>

#include <memory>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace posatlas::ui {

class AnimationPreview;
class AnimationRun;

// One quantity the dialog can move, with the defaults of its sweep.
struct AnimationField {
    std::string key; // SweepSpec::field: the registry key, or query_position / key_position
    QString label;   // translated, for the combo and messages
    double lo = 0.0, hi = 0.0;
    bool lo_open = false;
    bool integer = false;
    bool log = false;     // the registry's log scale: the default step
    double current = 0.0; // its value in the scenario (or the view's settings)
};
// The numeric fields of the scenario's method and the common ones the panel shows, then the rotation's
// positions when `view` is the rotation view.
std::vector<AnimationField> animation_fields(const Scenario& s, const ViewSettings& settings, ViewKind view);

class AnimationDialog : public QDialog
{
    Q_OBJECT
public:
    // `base`: the view, scenario, view settings and colour map to animate; its sweep, figure, fps and
    // format fill the form when its sweep names a field (else the first field with its defaults).
    explicit AnimationDialog(const AnimationRequest& base, QWidget* parent = nullptr);
    ~AnimationDialog() override;

    // Fills the form from a request (a lesson step's animation); the view and scenario stay the dialog's.
    void setRequest(const AnimationRequest& request);
    void setPath(const QString& path);
    QString path() const; // with the format's extension when the name has none

    // The request the form describes, checked; or "" and the message (naming the parameter and range).
    AnimationRequest request(QString* error = nullptr) const;
    QString message() const; // the inline message ("" when the form is valid)

    // Writes the animation (what Export does); refused (false, message shown) while the form is invalid.
    bool startExport();
    bool exporting() const;
    void cancelExport();

    // Widgets, for tests and screenshots.
    QComboBox* fieldCombo() const { return m_field; }
    QLineEdit* fromEdit() const { return m_from; }
    QLineEdit* toEdit() const { return m_to; }
    QCheckBox* logCheck() const { return m_log; }
    QSpinBox* framesSpin() const { return m_frames; }
    QSpinBox* fpsSpin() const { return m_fps; }
    QSpinBox* widthSpin() const { return m_width; }
    QSpinBox* heightSpin() const { return m_height; }
    QSpinBox* dpiSpin() const { return m_dpi; }
    QComboBox* formatCombo() const { return m_format; }
    QLineEdit* fileEdit() const { return m_file; }
    QLabel* messageLabel() const { return m_message; }
    QProgressBar* progressBar() const { return m_progress; }
    QPushButton* exportButton() const { return m_export; }
    AnimationPreview* preview() const { return m_preview; }
    const std::vector<AnimationField>& fields() const { return m_fields; }

signals:
    void exported(const QString& path);
    void exportFailed(const QString& message);
    void exportCancelled();

public slots:
    void accept() override; // Export
    void reject() override; // Cancel: stops a running export first

private:
    void fieldChosen();
    void formatChosen();
    void fileEdited();
    void settingsEdited(); // checks the form, schedules the preview
    void updatePreview();
    void updateSummary();
    void exportEnded();
    AnimationFormat format() const;

    AnimationRequest m_base;
    std::vector<AnimationField> m_fields;
    QComboBox* m_field;
    QLineEdit* m_from;
    QLineEdit* m_to;
    QCheckBox* m_log;
    QSpinBox* m_frames;
    QSpinBox* m_fps;
    QComboBox* m_preset;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QSpinBox* m_dpi;
    QComboBox* m_format;
    QLineEdit* m_file;
    QLabel* m_summary;
    QLabel* m_message;
    AnimationPreview* m_preview;
    QProgressBar* m_progress;
    QPushButton* m_export;
    QPushButton* m_close;
    QTimer m_previewTimer; // debounces the preview
    std::unique_ptr<AnimationRun> m_run;
    QString m_confirmedPath;
};

} // namespace posatlas::ui

// SPDX-License-Identifier: GPL-3.0-or-later
// File > Open Trained Run… (and the Lab window's "Open in Main Window"): a run folder (the shipped runs are
// listed, any other run folder can be chosen), the example's length (by default four times the trained
// length), the layer, the head and the seed of the example input. Open checks the request in this process
// (trained_run.h check_trained_run: a refusal names the field and its limits, in a message box, and nothing
// changes) and probes the run in posatlas-lab (trained_run.h TrainedRunProbe): a busy bar while it runs,
// Cancel stops it, and a newer request replaces an older one. When the probe is ready the dialog emits
// opened(); the main window applies that head's session as one undo step. Once a run is open, another
// head or layer follows at once (a head of a layer already probed needs no new probe). Non-modal: it stays
// open beside the figures.
#pragma once

#include "lab/trained_run.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace posatlas::ui {

class TrainedRunDialog : public QDialog
{
    Q_OBJECT
public:
    explicit TrainedRunDialog(QWidget* parent = nullptr);

    // Selects `dir` (a shipped run's item when it is one, else an item of its own) and fills in its
    // defaults: the example length four times its trained length (within its limits), layer and head 0.
    void setRun(const QString& dir);
    QString run() const;
    TrainedRunRequest currentRequest() const;
    // Open: checks and starts (or finds in the cache) the probe. False when refused (message box and status).
    bool openRun();
    void cancelProbe();

    TrainedRunProbe* probe() const { return m_probe; }
    QComboBox* runCombo() const { return m_run; }
    QSpinBox* lengthSpin() const { return m_length; }
    QSpinBox* layerSpin() const { return m_layer; }
    QSpinBox* headSpin() const { return m_head; }
    QSpinBox* seedSpin() const { return m_seed; }
    QPushButton* openButton() const { return m_open; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_progress; }
    QString statusText() const;

signals:
    // The probe of `request` is ready in `folder` (head-H.posatlas.json for each head of its layer).
    void opened(const posatlas::ui::TrainedRunRequest& request, const QString& folder);

private:
    void onRunChanged();
    void onHeadOrLayerChanged();
    void browse();
    void refuse(const QString& message);
    void showStatus(const QString& message);
    void setBusy(bool busy);

    TrainedRunProbe* m_probe;
    QComboBox* m_run = nullptr;
    QLabel* m_runInfo = nullptr;
    QSpinBox* m_length = nullptr;
    QSpinBox* m_layer = nullptr;
    QSpinBox* m_head = nullptr;
    QSpinBox* m_seed = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_open = nullptr;
    QPushButton* m_cancel = nullptr;
    bool m_opened = false;  // a request of this run was opened: head and layer follow at once
    bool m_filling = false; // setRun is filling in the defaults
};

} // namespace posatlas::ui

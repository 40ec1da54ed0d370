// SPDX-License-Identifier: GPL-3.0-or-later
// The context-extension explorer: a window comparing two to four RoPE scalings of one model on
// shared axes. The control panel (explorer_panel.h) sits in a dock; the views are tabs: per-pair scaling,
// wavelength vs context, angle coverage, dynamic NTK (with the current-length slider), temperature and
// entropy, relative scores, and the per-pair table. Each view has a short explanation and exports through
// Figure (PNG / SVG / PDF); the table exports CSV. Work runs in a JobTracker, never on the GUI thread.
#pragma once

#include "explorer/explorer_figures.h"
#include "explorer/explorer_jobs.h"
#include "explorer/explorer_model.h"
#include "jobs/job_tracker.h"
#include "model/session.h"

#include <QMainWindow>

#include <array>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QProgressBar;
class QTabWidget;
class QTableView;

namespace posatlas::ui {

class ExplorerPanel;
class ExplorerTableModel;
class LogSlider;
class PlotWidget;

class ExplorerWindow : public QMainWindow
{
    Q_OBJECT
public:
    // The slots of jobs(): the tables (explorer_jobs.h compute_explorer_tables), the dynamic-NTK
    // frequencies at the current length, the attention entropy.
    enum Job { TablesJob, DynamicJob, EntropyJob };

    explicit ExplorerWindow(QWidget* parent = nullptr);
    ~ExplorerWindow() override;

    // Seeds the explorer with a RoPE configuration (e.g. the main window's scenario).
    void setRopeModel(const RopeParams& params, const QString& name);
    bool loadPreset(const QString& id);
    bool openConfig(const QString& path);

    // The whole state (model, variants, lengths, tab) for sessions and the autosave, and back. applyState
    // returns false, leaving the explorer as it was, when the state does not validate.
    ExplorerState state() const;
    bool applyState(const ExplorerState& state);

    ExplorerModel* model() const { return m_model; }
    ExplorerPanel* panel() const { return m_panel; }
    JobTracker* jobs() const { return m_jobs; }
    ExplorerTableModel* tableModel() const { return m_tableModel; }
    QTableView* tableView() const { return m_tableView; }
    QTabWidget* tabs() const { return m_tabs; }
    LogSlider* lengthSlider() const { return m_lengthSlider; }
    QLabel* baseLabel() const { return m_baseLabel; }
    QComboBox* regimeCombo() const { return m_regimeCombo; }
    // The plots of each view (two for Temperature and Scores; none for Table).
    QList<PlotWidget*> plots(ExplorerView view) const;
    // The figure of a view (the plot, or both stacked); nullptr for the table.
    const Figure* figure(ExplorerView view) const;
    const std::optional<ExplorerTables>& tables() const { return m_tables; }
    const std::optional<DynamicResult>& dynamicResult() const { return m_dynamic; }
    const std::optional<EntropyResult>& entropyResult() const { return m_entropy; }
    // What the entropy plot feeds the attention (the combo above the Temperature & entropy view):
    // the repeated token by default, random q, k as the frequency-blind contrast.
    EntropyContent entropyContent() const;
    void setEntropyContent(EntropyContent content);
    // The length-dependent query scale drawn in the temperature and entropy plots (the combo beside the
    // content): its kind, the model's trained length for log-n, Llama 4's floor_scale and attn_scale from
    // the model's config (else Llama4TextConfig's 8192 and 0.1).
    QueryScale queryScale() const;
    void setQueryScaleKind(QueryScaleKind kind);
    QComboBox* queryScaleCombo() const { return m_queryScaleCombo; }
    QComboBox* entropyContentCombo() const { return m_entropyContentCombo; }
    // The entropy curves computed so far, per variant (shared with the entropy jobs).
    const EntropyCache& entropyCache() const { return *m_entropyCache; }
    QString statusText() const;

    // Writes the per-pair table as CSV (write_file_atomically). False and a status message on error.
    bool exportCsv(const QString& path);
    bool exportFigure(ExplorerView view, const QString& path);
    // Sizes and centres the window within its screen's available geometry (at most 1400 x 900).
    void fitToScreen();

private:
    void buildTabs();
    void requestAll();
    void request(Job job, const ExplorerInput& input);
    void onTables(const ExplorerTables& t);
    void onDynamic(const DynamicResult& d);
    void onEntropy(const EntropyResult& e);
    void refreshPlots();
    void rebuildLengthSlider();
    void rebuildRegimeCombo();
    void showStatus(const QString& message);
    bool dark() const;
    QWidget* wrap(QWidget* content, ExplorerView view, QWidget* top = nullptr);

    ExplorerModel* m_model;
    JobTracker* m_jobs;
    ExplorerPanel* m_panel = nullptr;
    QTabWidget* m_tabs = nullptr;
    std::array<QList<PlotWidget*>, kExplorerViewCount> m_plots;
    std::array<std::unique_ptr<Figure>, kExplorerViewCount> m_stacked; // two-plot views
    ExplorerTableModel* m_tableModel = nullptr;
    QTableView* m_tableView = nullptr;
    QWidget* m_lengthBox = nullptr;
    LogSlider* m_lengthSlider = nullptr;
    QLabel* m_baseLabel = nullptr;
    QComboBox* m_regimeCombo = nullptr;
    QComboBox* m_entropyContentCombo = nullptr;
    QComboBox* m_queryScaleCombo = nullptr;
    std::shared_ptr<EntropyCache> m_entropyCache = std::make_shared<EntropyCache>();
    QProgressBar* m_entropyProgress = nullptr;
    std::optional<ExplorerTables> m_tables;
    std::optional<DynamicResult> m_dynamic;
    std::optional<EntropyResult> m_entropy;
    QString m_status;
};

} // namespace posatlas::ui

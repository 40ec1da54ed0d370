// SPDX-License-Identifier: GPL-3.0-or-later
#include "explorer/explorer_window.h"

#include "explorer/explorer_panel.h"
#include "explorer/explorer_plot.h"
#include "explorer/explorer_table.h"
#include "export/figure_export.h"
#include "scenario/validation.h"
#include "views/figure_style.h"
#include "widgets/log_slider.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace posatlas::ui {

namespace {

// Two plots as one figure, split along the longer side of the target (export of the two-plot views).
class StackedFigure : public Figure
{
public:
    explicit StackedFigure(QList<PlotWidget*> plots) : m_plots(std::move(plots)) {}
    void renderFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const override
    {
        const auto n = static_cast<double>(m_plots.size());
        const bool across = target.width() > 1.6 * target.height();
        for (int i = 0; i < m_plots.size(); ++i) {
            const QRectF r = across ? QRectF(target.left() + i * target.width() / n, target.top(),
                                             target.width() / n, target.height())
                                    : QRectF(target.left(), target.top() + i * target.height() / n,
                                             target.width(), target.height() / n);
            RenderOptions o = options;
            if (i + 1 < m_plots.size())
                o.caption.clear(); // the caption once, under the last plot
            m_plots[i]->renderFigure(painter, r, o);
        }
    }
    QString figureTitle() const override { return m_plots.front()->figureTitle(); }

private:
    QList<PlotWidget*> m_plots;
};

} // namespace

ExplorerWindow::ExplorerWindow(QWidget* parent)
    : QMainWindow(parent), m_model(new ExplorerModel(this)), m_jobs(new JobTracker(this))
{
    setWindowTitle(tr("Context-extension explorer"));
    m_panel = new ExplorerPanel(m_model, this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_panel);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* dock = new QDockWidget(tr("Model and methods"), this);
    dock->setObjectName(QStringLiteral("explorerPanelDock"));
    dock->setWidget(scroll);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    scroll->setMinimumWidth(330);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    buildTabs();

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("Export &Figure…"), QKeySequence(tr("Ctrl+E")), this, [this] {
        const auto view = static_cast<ExplorerView>(m_tabs->currentIndex());
        if (!figure(view))
            return;
        const QString path = QFileDialog::getSaveFileName(this, tr("Export figure"), {},
                                                          tr("PNG (*.png);;SVG (*.svg);;PDF (*.pdf)"));
        if (!path.isEmpty())
            exportFigure(view, path);
    });
    file->addAction(tr("Export Table as &CSV…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export CSV"), {}, tr("CSV (*.csv)"));
        if (!path.isEmpty())
            exportCsv(path);
    });
    file->addSeparator();
    file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);

    m_entropyProgress = new QProgressBar(this);
    m_entropyProgress->setMaximumWidth(160);
    m_entropyProgress->setFormat(tr("entropy %p%"));
    m_entropyProgress->hide();
    statusBar()->addPermanentWidget(m_entropyProgress);

    connect(m_panel, &ExplorerPanel::errorMessage, this, &ExplorerWindow::showStatus);
    connect(m_model, &ExplorerModel::modelChanged, this, &ExplorerWindow::rebuildLengthSlider);
    connect(m_model, &ExplorerModel::variantsChanged, this, [this] {
        rebuildRegimeCombo();
        requestAll();
    });
    connect(m_model, &ExplorerModel::parametersChanged, this, [this] {
        const double hi = 2.0 * static_cast<double>(m_model->targetLength());
        if (!m_lengthSlider || std::abs(m_lengthSlider->range().max - hi) > 0.5)
            rebuildLengthSlider();
        requestAll();
    });
    connect(m_model, &ExplorerModel::currentLengthChanged, this,
            [this] { request(DynamicJob, explorer_input(*m_model)); });
    m_jobs->setDebounceMs(30); // coalesce the events of a slider drag
    connect(m_jobs, &JobTracker::jobFailed, this, [this](int, const QString& m) { showStatus(m); });
    connect(m_jobs, &JobTracker::progressChanged, this, [this](int job, int p) {
        if (job != EntropyJob)
            return;
        m_entropyProgress->setValue(p);
        m_entropyProgress->setVisible(p < 100);
    });
    fitToScreen();
}

void ExplorerWindow::fitToScreen()
{
    // 1400 x 900 suits the plots, but never more than the screen offers (a 1366 x 768 laptop loses
    // its task bar and the window's own frame to the available geometry).
    const QScreen* screen = parentWidget() ? parentWidget()->screen() : QGuiApplication::primaryScreen();
    if (!screen) {
        resize(1400, 900);
        return;
    }
    const QRect available = screen->availableGeometry();
    const QSize size(std::min(1400, available.width() * 9 / 10), std::min(900, available.height() * 9 / 10));
    resize(size);
    move(available.center() - QPoint(size.width() / 2, size.height() / 2));
}

ExplorerWindow::~ExplorerWindow() = default;

QWidget* ExplorerWindow::wrap(QWidget* content, ExplorerView view, QWidget* top)
{
    auto* page = new QWidget(m_tabs);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 4, 4, 4);
    if (top)
        layout->addWidget(top);
    layout->addWidget(content, 1);
    auto* text = new QLabel(explorer_explanation(view), page);
    text->setWordWrap(true);
    text->setTextFormat(Qt::RichText);
    text->setFrameShape(QFrame::StyledPanel);
    text->setMargin(6);
    text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    text->setObjectName(QStringLiteral("explanation"));
    layout->addWidget(text);
    return page;
}

void ExplorerWindow::buildTabs()
{
    // "&" in a tab text is a mnemonic marker: double it ("Temperature & entropy").
    auto tabName = [](ExplorerView v) {
        return explorer_view_name(v).replace(QLatin1Char('&'), QStringLiteral("&&"));
    };
    m_tabs = new QTabWidget(this);
    setCentralWidget(m_tabs);
    auto single = [this](ExplorerView v) {
        auto* p = new PlotWidget(m_tabs);
        m_plots[static_cast<std::size_t>(v)] = {p};
        return p;
    };
    // 1. per-pair scaling, with the choice of whose regimes are shaded
    auto* top = new QWidget(m_tabs);
    auto* tl = new QHBoxLayout(top);
    tl->setContentsMargins(0, 0, 0, 0);
    m_regimeCombo = new QComboBox(top);
    m_regimeCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_regimeCombo->setToolTip(tr("Whose regimes are shaded and labelled"));
    tl->addWidget(new QLabel(tr("Regimes of:"), top));
    tl->addWidget(m_regimeCombo);
    tl->addStretch(1);
    connect(m_regimeCombo, &QComboBox::currentIndexChanged, this, [this] { refreshPlots(); });
    m_tabs->addTab(wrap(single(ExplorerView::PerPair), ExplorerView::PerPair, top),
                   tabName(ExplorerView::PerPair));
    m_tabs->addTab(wrap(single(ExplorerView::Wavelength), ExplorerView::Wavelength),
                   tabName(ExplorerView::Wavelength));
    m_tabs->addTab(wrap(single(ExplorerView::Coverage), ExplorerView::Coverage),
                   tabName(ExplorerView::Coverage));
    // 4. dynamic NTK with the current-length slider
    m_lengthBox = new QWidget(m_tabs);
    auto* ll = new QHBoxLayout(m_lengthBox);
    ll->setContentsMargins(0, 0, 0, 0);
    ll->addWidget(new QLabel(tr("Current sequence length N:"), m_lengthBox));
    m_baseLabel = new QLabel(m_lengthBox);
    m_baseLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    ll->addStretch(1);
    ll->addWidget(m_baseLabel);
    m_tabs->addTab(wrap(single(ExplorerView::Dynamic), ExplorerView::Dynamic, m_lengthBox),
                   tabName(ExplorerView::Dynamic));
    // 5. temperature and entropy; 6. decay and score: two plots each
    auto twin = [this](ExplorerView v, Qt::Orientation o) {
        auto* split = new QSplitter(o, m_tabs);
        auto* a = new PlotWidget(split);
        auto* b = new PlotWidget(split);
        split->addWidget(a);
        split->addWidget(b);
        m_plots[static_cast<std::size_t>(v)] = {a, b};
        m_stacked[static_cast<std::size_t>(v)] = std::make_unique<StackedFigure>(QList<PlotWidget*>{a, b});
        return split;
    };
    // The entropy's content, above the temperature and entropy plots.
    auto* contentBox = new QWidget(m_tabs);
    auto* cl = new QHBoxLayout(contentBox);
    cl->setContentsMargins(0, 0, 0, 0);
    m_entropyContentCombo = new QComboBox(contentBox);
    m_entropyContentCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_entropyContentCombo->addItem(tr("Repeated token (q = k): positions only"),
                                   static_cast<int>(EntropyContent::RepeatedToken));
    m_entropyContentCombo->addItem(tr("Random q, k: frequencies do not matter"),
                                   static_cast<int>(EntropyContent::RandomQK));
    m_entropyContentCombo->setToolTip(tr("What the queries and keys of the entropy plot are"));
    m_queryScaleCombo = new QComboBox(contentBox);
    m_queryScaleCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_queryScaleCombo->addItem(tr("None"), static_cast<int>(QueryScaleKind::None));
    m_queryScaleCombo->addItem(tr("Qwen log-n (use_logn_attn)"), static_cast<int>(QueryScaleKind::LogN));
    m_queryScaleCombo->addItem(tr("Llama 4 temperature (NoPE layers)"),
                               static_cast<int>(QueryScaleKind::Llama4));
    m_queryScaleCombo->setToolTip(
        tr("A scale of each query that grows with its position past the trained length, drawn beside the "
           "RoPE scalings' temperatures"));
    cl->addStretch(1);
    cl->addWidget(new QLabel(tr("Entropy content:"), contentBox));
    cl->addWidget(m_entropyContentCombo);
    cl->addWidget(new QLabel(tr("Length-dependent scale:"), contentBox));
    cl->addWidget(m_queryScaleCombo);
    for (QComboBox* combo : {m_entropyContentCombo, m_queryScaleCombo})
        connect(combo, &QComboBox::currentIndexChanged, this, [this] {
            if (m_model->variants().empty())
                return;
            request(EntropyJob, explorer_input(*m_model));
            refreshPlots(); // the temperature plot draws the scale at once
        });
    m_tabs->addTab(
        wrap(twin(ExplorerView::Temperature, Qt::Horizontal), ExplorerView::Temperature, contentBox),
        tabName(ExplorerView::Temperature));
    m_tabs->addTab(wrap(twin(ExplorerView::Scores, Qt::Vertical), ExplorerView::Scores),
                   tabName(ExplorerView::Scores));
    // 7. the table
    auto* tablePage = new QWidget(m_tabs);
    auto* tv = new QVBoxLayout(tablePage);
    tv->setContentsMargins(0, 0, 0, 0);
    m_tableModel = new ExplorerTableModel(this);
    m_tableView = new QTableView(tablePage);
    m_tableView->setModel(m_tableModel);
    m_tableView->verticalHeader()->hide();
    m_tableView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* csv = new QPushButton(tr("Export CSV…"), tablePage);
    connect(csv, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export CSV"), {}, tr("CSV (*.csv)"));
        if (!path.isEmpty())
            exportCsv(path);
    });
    auto* bar = new QHBoxLayout;
    bar->addStretch(1);
    bar->addWidget(csv);
    tv->addWidget(m_tableView, 1);
    tv->addLayout(bar);
    m_tabs->addTab(wrap(tablePage, ExplorerView::Table), tabName(ExplorerView::Table));
}

void ExplorerWindow::setRopeModel(const RopeParams& params, const QString& name)
{
    try {
        m_model->setModel(params, name);
    } catch (const std::exception& e) {
        showStatus(tr("Cannot explore this configuration: %1").arg(QString::fromUtf8(e.what())));
    }
}

ExplorerState ExplorerWindow::state() const
{
    ExplorerState s;
    s.model = m_model->modelParams();
    s.name = m_model->modelName();
    for (const ExplorerVariant& v : m_model->variants())
        s.variants.push_back({variant_kind_id(v.kind), v.label, v.params, v.factor_pinned});
    s.target_length = m_model->targetLength();
    s.current_length = m_model->currentLength();
    s.tab = m_tabs->currentIndex();
    return s;
}

bool ExplorerWindow::applyState(const ExplorerState& state)
{
    // Checked before anything changes: a state that does not fit leaves the explorer as it was.
    std::vector<ExplorerVariant> variants;
    for (const auto& v : state.variants) {
        const auto kind = parse_variant_kind(v.kind);
        if (!kind)
            return false;
        try {
            validate(v.params);
        } catch (const ParameterError&) {
            return false;
        }
        variants.push_back({*kind, 0, v.label, v.params, v.factor_pinned.value_or(false)});
    }
    if (static_cast<int>(variants.size()) < kMinVariants || static_cast<int>(variants.size()) > kMaxVariants)
        return false;
    try {
        m_model->setModel(state.model, state.name);
        // Sessions written before factors followed the target: a factor that differs from T / L stays
        // as it was saved (pinned), so the session shows what it showed.
        const std::int64_t target = state.target_length > 0 ? state.target_length : m_model->targetLength();
        const double follow = extension_factor(m_model->trainedLength(), std::min(target, kMaxSeqLen));
        for (std::size_t i = 0; i < variants.size(); ++i)
            if (!state.variants[i].factor_pinned && variant_has_factor(variants[i].kind))
                variants[i].factor_pinned = variants[i].params.factor != follow;
    } catch (const ParameterError&) {
        return false;
    }
    m_model->setVariants(std::move(variants));
    if (state.target_length > 0)
        m_model->setTargetLength(state.target_length);
    if (state.current_length > 0)
        m_model->setCurrentLength(state.current_length);
    if (state.tab >= 0 && state.tab < m_tabs->count())
        m_tabs->setCurrentIndex(state.tab);
    return true;
}

bool ExplorerWindow::loadPreset(const QString& id)
{
    return m_panel->loadPreset(id);
}

bool ExplorerWindow::openConfig(const QString& path)
{
    return m_panel->openConfig(path);
}

QList<PlotWidget*> ExplorerWindow::plots(ExplorerView view) const
{
    return m_plots[static_cast<std::size_t>(view)];
}

const Figure* ExplorerWindow::figure(ExplorerView view) const
{
    const auto i = static_cast<std::size_t>(view);
    if (m_stacked[i])
        return m_stacked[i].get();
    return m_plots[i].isEmpty() ? nullptr : m_plots[i].front();
}

QString ExplorerWindow::statusText() const
{
    return m_status;
}

void ExplorerWindow::showStatus(const QString& message)
{
    m_status = message;
    statusBar()->showMessage(message, 15000);
}

bool ExplorerWindow::dark() const
{
    return palette_is_dark(palette());
}

void ExplorerWindow::requestAll()
{
    if (m_model->variants().empty())
        return;
    const ExplorerInput in = explorer_input(*m_model);
    request(TablesJob, in);
    request(DynamicJob, in);
    request(EntropyJob, in);
}

void ExplorerWindow::request(Job job, const ExplorerInput& in)
{
    switch (job) {
    case TablesJob:
        m_jobs->submit(
            job, [in](const JobControl& c) { return compute_explorer_tables(in, c.cancel); },
            [this](ExplorerTables&& t) { onTables(t); });
        break;
    case DynamicJob:
        m_jobs->submit(
            job, [in](const JobControl&) { return compute_explorer_dynamic(in); },
            [this](DynamicResult&& d) { onDynamic(d); });
        break;
    case EntropyJob: {
        ExplorerInput e = in;
        e.entropy_content = entropyContent();
        e.query_scale = queryScale();
        m_jobs->submit(
            job,
            [e, cache = m_entropyCache](const JobControl& c) {
                return compute_explorer_entropy(e, cache.get(), c.cancel, c.progress);
            },
            [this](EntropyResult&& r) { onEntropy(r); });
        break;
    }
    }
}

EntropyContent ExplorerWindow::entropyContent() const
{
    return static_cast<EntropyContent>(m_entropyContentCombo->currentData().toInt());
}

void ExplorerWindow::setEntropyContent(EntropyContent content)
{
    m_entropyContentCombo->setCurrentIndex(m_entropyContentCombo->findData(static_cast<int>(content)));
}

QueryScale ExplorerWindow::queryScale() const
{
    QueryScale s;
    s.kind = static_cast<QueryScaleKind>(m_queryScaleCombo->currentData().toInt());
    s.trained_length = m_model->trainedLength();
    // Llama 4's floor_scale and attn_scale as the model's config sets them, else Llama4TextConfig's defaults.
    for (const LayerAnatomy& layer : m_model->configImport().layers)
        if (layer.temperature) {
            s.floor_scale = layer.floor_scale;
            s.attn_scale = layer.attn_scale;
            break;
        }
    return s;
}

void ExplorerWindow::setQueryScaleKind(QueryScaleKind kind)
{
    m_queryScaleCombo->setCurrentIndex(m_queryScaleCombo->findData(static_cast<int>(kind)));
}

void ExplorerWindow::rebuildLengthSlider()
{
    delete m_lengthSlider;
    LogSlider::Range r;
    r.min = static_cast<double>(m_model->trainedLength());
    r.max = std::max(r.min * 2.0, 2.0 * static_cast<double>(m_model->targetLength()));
    r.log_scale = true;
    r.integer = true;
    m_lengthSlider = new LogSlider(r, m_lengthBox);
    m_lengthSlider->setToolTips(
        tr("The current sequence length N that dynamic NTK (and LongRoPE's short/long "
           "switch) depend on"));
    m_lengthSlider->setValue(static_cast<double>(std::clamp<std::int64_t>(
        m_model->currentLength(), static_cast<std::int64_t>(r.min), static_cast<std::int64_t>(r.max))));
    m_model->setCurrentLength(static_cast<std::int64_t>(std::llround(m_lengthSlider->value())));
    qobject_cast<QHBoxLayout*>(m_lengthBox->layout())->insertWidget(1, m_lengthSlider, 3);
    connect(m_lengthSlider, &LogSlider::valueEdited, this,
            [this](double v) { m_model->setCurrentLength(static_cast<std::int64_t>(std::llround(v))); });
}

void ExplorerWindow::rebuildRegimeCombo()
{
    const QSignalBlocker block(m_regimeCombo);
    const int keep = m_regimeCombo->currentIndex();
    m_regimeCombo->clear();
    for (const ExplorerVariant& v : m_model->variants())
        m_regimeCombo->addItem(v.label);
    m_regimeCombo->setCurrentIndex(std::clamp(keep, 0, m_regimeCombo->count() - 1));
}

void ExplorerWindow::onTables(const ExplorerTables& t)
{
    m_tables = t;
    m_tableModel->setTables(t);
    QStringList errors;
    for (const VariantResult& r : t.variants)
        if (!r.error.isEmpty())
            errors << tr("%1: %2").arg(r.variant.label, r.error);
    if (!errors.isEmpty())
        showStatus(errors.join(QStringLiteral(" · ")));
    refreshPlots();
}

void ExplorerWindow::onDynamic(const DynamicResult& d)
{
    m_dynamic = d;
    const QString base = dynamic_base_text(d);
    m_baseLabel->setText(base.isEmpty() ? QString()
                                        : tr("<b>effective base</b> %1").arg(base.toHtmlEscaped()));
    refreshPlots();
}

void ExplorerWindow::onEntropy(const EntropyResult& e)
{
    m_entropy = e;
    m_entropyProgress->hide();
    refreshPlots();
}

void ExplorerWindow::refreshPlots()
{
    const bool d = dark();
    auto plot = [this](ExplorerView v, int i = 0) { return m_plots[static_cast<std::size_t>(v)][i]; };
    if (m_tables) {
        plot(ExplorerView::PerPair)->setSpec(per_pair_spec(*m_tables, m_regimeCombo->currentIndex(), d));
        plot(ExplorerView::Wavelength)->setSpec(wavelength_spec(*m_tables, d));
        plot(ExplorerView::Coverage)->setSpec(coverage_spec(*m_tables, d));
        plot(ExplorerView::Temperature, 0)->setSpec(temperature_spec(*m_tables, queryScale(), d));
        plot(ExplorerView::Scores, 0)->setSpec(decay_spec(*m_tables, d));
        plot(ExplorerView::Scores, 1)->setSpec(score_spec(*m_tables, d));
    }
    if (m_dynamic)
        plot(ExplorerView::Dynamic)->setSpec(dynamic_spec(*m_dynamic, d));
    if (m_entropy && m_tables)
        plot(ExplorerView::Temperature, 1)
            ->setSpec(entropy_spec(*m_entropy, m_tables->trained, m_tables->target, d));
}

bool ExplorerWindow::exportCsv(const QString& path)
{
    try {
        write_file_atomically(path, m_tableModel->csv());
        showStatus(tr("Wrote %1").arg(path));
        return true;
    } catch (const std::exception& e) {
        showStatus(QString::fromUtf8(e.what()));
        return false;
    }
}

bool ExplorerWindow::exportFigure(ExplorerView view, const QString& path)
{
    const Figure* f = figure(view);
    if (!f)
        return false;
    try {
        FigureExportOptions o;
        o.size = m_stacked[static_cast<std::size_t>(view)] ? QSizeF(1400, 700) : QSizeF(1200, 800);
        o.title = f->figureTitle();
        o.render.caption = tr("PosAtlas context-extension explorer · %1").arg(m_model->modelName());
        export_figure(*f, path, o);
        showStatus(tr("Wrote %1").arg(path));
        return true;
    } catch (const std::exception& e) {
        showStatus(QString::fromUtf8(e.what()));
        return false;
    }
}

} // namespace posatlas::ui

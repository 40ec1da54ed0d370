// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/lab_window.h"

#include "export/figure_export.h"
#include "lab/lab.h"
#include "lab/lab_sweep.h"
#include "lab/trained_run.h"
#include "model/parameter_message.h"
#include "scenario/types.h"
#include "views/curve_chart.h"
#include "views/figure_style.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace posatlas::ui {

namespace {

// m:ss, or h:mm:ss from an hour on.
QString timeLeft(double seconds)
{
    const long t = std::lround(std::max(0.0, seconds));
    const QString mmss = QStringLiteral("%1:%2")
                             .arg(t / 60 % 60, t >= 3600 ? 2 : 1, 10, QLatin1Char('0'))
                             .arg(t % 60, 2, 10, QLatin1Char('0'));
    return t >= 3600 ? QStringLiteral("%1:%2").arg(t / 3600).arg(mmss) : mmss;
}

// The model sizes the window offers: LabConfig's default, and a tiny one for a quick look.
struct ModelSize {
    int layers, d_model, heads, batch;
};
constexpr ModelSize kModelSizes[] = {{2, 64, 4, 32}, {1, 16, 2, 8}};

} // namespace

LabWindow::LabWindow(QWidget* parent) : QMainWindow(parent), m_runner(new LabSweepRunner(this))
{
    setWindowTitle(tr("Lab: train and measure positional encodings"));
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    // The fields scroll; Run, Cancel, the progress and the messages stay in view below them.
    auto* panel = new QWidget(splitter);
    auto* v = new QVBoxLayout(panel);
    auto* scroll = new QScrollArea(panel);
    scroll->setWidget(buildControls());
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    m_scroll = scroll;
    v->addWidget(scroll, 1);
    auto* buttons = new QHBoxLayout;
    m_run = new QPushButton(tr("R&un"), panel);
    m_run->setDefault(true);
    m_cancel = new QPushButton(tr("&Cancel"), panel);
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    v->addLayout(buttons);
    connect(m_run, &QPushButton::clicked, this, [this] { run(); });
    connect(m_cancel, &QPushButton::clicked, this, &LabWindow::cancel);
    m_progress = new QProgressBar(panel);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setTextVisible(false);
    v->addWidget(m_progress);
    m_progressLabel = new QLabel(panel);
    m_progressLabel->setWordWrap(true);
    v->addWidget(m_progressLabel);
    m_status = new QLabel(panel);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(m_status);
    m_chart = new CurveChart;
    m_chartView = new CurveChartView(m_chart, splitter);
    m_chartView->setMinimumSize(480, 360);
    splitter->addWidget(panel);
    splitter->addWidget(m_chartView);
    splitter->setStretchFactor(1, 1);
    setCentralWidget(splitter);

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("Export &Figure…"), QKeySequence(tr("Ctrl+E")), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export figure"), {},
                                                          tr("PNG (*.png);;SVG (*.svg);;PDF (*.pdf)"));
        if (!path.isEmpty())
            exportFigure(path);
    });
    file->addAction(tr("Export &Table…"), this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Export table"), {}, tr("CSV (*.csv);;JSON (*.json)"));
        if (!path.isEmpty())
            exportTable(path);
    });
    file->addSeparator();
    file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);

    connect(m_runner, &LabSweepRunner::runStarted, this, &LabWindow::onRunStarted);
    connect(
        m_runner, &LabSweepRunner::evaluating, this,
        [this](int index, int count, const QString& method, int seed) {
            m_progressLabel->setText(
                tr("Run %1 of %2: %3, seed %4 · evaluating").arg(index + 1).arg(count).arg(method).arg(seed));
        });
    connect(m_runner, &LabSweepRunner::trainingProgress, this, &LabWindow::onProgress);
    connect(m_runner, &LabSweepRunner::tableChanged, this, &LabWindow::updateFigure);
    connect(m_runner, &LabSweepRunner::finished, this, &LabWindow::onFinished);

    setLabExecutable(QString::fromStdString(lab::find_lab_executable()));
    restyle();
    updateDefaultFolder();
    updateFigure();
    updateTrainedRuns();
    connect(m_folder, &QLineEdit::editingFinished, this, &LabWindow::updateTrainedRuns);
    resize(1200, 760);
}

LabWindow::~LabWindow() = default;

void LabWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange ||
        event->type() == QEvent::StyleChange)
        restyle();
    QMainWindow::changeEvent(event);
}

void LabWindow::showEvent(QShowEvent* event)
{
    // As wide as the controls need (measured once polished, in this language and font) with the vertical
    // scroll bar beside them: nothing cut at the right.
    QWidget* controls = m_scroll->widget();
    controls->ensurePolished();
    m_scroll->setMinimumWidth(controls->minimumSizeHint().width() +
                              m_scroll->verticalScrollBar()->sizeHint().width() + 2 * m_scroll->frameWidth());
    QMainWindow::showEvent(event);
}

void LabWindow::restyle()
{
    // The theme of the application (View > Dark Theme sets its palette).
    if (!m_chart) // during construction
        return;
    const bool dark = palette_is_dark(palette());
    m_chart->setChartStyle({dark, 1.0, font()});
    m_chartView->setDark(dark);
    m_installed->setStyleSheet(QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(errorColor()));
    m_status->setStyleSheet(m_statusError ? QStringLiteral("QLabel { color: %1; }").arg(errorColor())
                                          : QString());
}

QWidget* LabWindow::buildControls()
{
    auto* w = new QWidget;
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(0, 0, 0, 0);

    m_installed = new QLabel(w);
    m_installed->setWordWrap(true);
    m_installed->setText(tr("The lab is not installed: posatlas-lab was found neither beside posatlas nor in "
                            "its libexec folder (a build without LibTorch, POSATLAS_LAB=OFF). Sweeps cannot "
                            "run; install the posatlas-lab package or build with LibTorch."));
    v->addWidget(m_installed);

    auto* training = new QGroupBox(tr("Task and training"), w);
    auto* form = new QFormLayout(training);
    m_task = new QComboBox(training);
    const QString taskText[] = {tr("copy: repeat a string"), tr("recall: the value of a key"),
                                tr("induction: what followed the trigger"),
                                tr("lm: the next character of the course's lessons (perplexity)")};
    for (std::size_t i = 0; i < lab::lab_tasks().size(); ++i)
        m_task->addItem(i < std::size(taskText) ? taskText[i] : QString::fromStdString(lab::lab_tasks()[i]),
                        QString::fromStdString(lab::lab_tasks()[i]));
    form->addRow(tr("&Task"), m_task);
    m_model = new QComboBox(training);
    m_model->addItem(tr("small (2 layers, width 64, batch 32)"));
    m_model->addItem(tr("tiny (1 layer, width 16, batch 8)"));
    m_model->setItemData(1, tr("A quick look: trains in seconds, learns little."), Qt::ToolTipRole);
    form->addRow(tr("&Model"), m_model);
    const lab::LabConfig defaults;
    m_trainLen = new QSpinBox(training);
    m_trainLen->setRange(4, 65536);
    m_trainLen->setValue(static_cast<int>(defaults.train_len));
    m_trainLen->setSuffix(tr(" tokens"));
    form->addRow(tr("Train &length"), m_trainLen);
    m_steps = new QSpinBox(training);
    m_steps->setRange(1, 10000000);
    m_steps->setValue(defaults.steps);
    form->addRow(tr("&Steps"), m_steps);
    m_seeds = new QSpinBox(training);
    m_seeds->setRange(1, 1000);
    m_seeds->setValue(3);
    m_seeds->setToolTip(tr("Runs per encoding, with seeds 0, 1, …; the figure shows their mean and, dashed, "
                           "the lowest and highest seed."));
    form->addRow(tr("S&eeds"), m_seeds);
    v->addWidget(training);

    auto* encodings = new QGroupBox(tr("Encodings"), w);
    auto* grid = new QGridLayout(encodings);
    int i = 0;
    for (const std::string& m : lab::lab_methods()) {
        const QString id = QString::fromStdString(m);
        auto* box = new QCheckBox(id, encodings);
        box->setChecked(true);
        m_methods[id] = box;
        grid->addWidget(box, i / 2, i % 2);
        ++i;
    }
    v->addWidget(encodings);

    auto* evaluation = new QGroupBox(tr("Evaluation"), w);
    auto* eform = new QFormLayout(evaluation);
    m_lengths = new QLineEdit(QStringLiteral("32,48,64,128"), evaluation);
    m_lengths->setToolTip(tr("Sequence lengths to evaluate, increasing, comma-separated."));
    eform->addRow(tr("Len&gths"), m_lengths);
    m_ropeScaling = new QComboBox(evaluation);
    m_ropeScaling->addItem(tr("none"), QStringLiteral("default"));
    for (const char* t : {"linear", "dynamic", "yarn", "llama3"})
        m_ropeScaling->addItem(QString::fromLatin1(t), QString::fromLatin1(t));
    m_ropeScaling->setToolTip(tr("A RoPE scaling applied at test time to the rope runs (the trained length "
                                 "is original_max_position_embeddings)."));
    eform->addRow(tr("&RoPE scaling"), m_ropeScaling);
    m_factor = new QDoubleSpinBox(evaluation);
    m_factor->setRange(1, 1024);
    m_factor->setDecimals(2);
    m_factor->setValue(4);
    m_factor->setEnabled(false);
    eform->addRow(tr("F&actor"), m_factor);
    connect(m_ropeScaling, &QComboBox::currentIndexChanged, this,
            [this](int index) { m_factor->setEnabled(index > 0); });
    v->addWidget(evaluation);

    auto* output = new QGroupBox(tr("Output folder"), w);
    auto* h = new QHBoxLayout(output);
    m_folder = new QLineEdit(output);
    h->addWidget(m_folder, 1);
    auto* browse = new QPushButton(tr("&Browse…"), output);
    h->addWidget(browse);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Output folder"), m_folder->text());
        if (!dir.isEmpty())
            m_folder->setText(dir);
    });
    v->addWidget(output);

    auto* trained = new QGroupBox(tr("Trained runs"), w);
    auto* tv = new QVBoxLayout(trained);
    m_trainedRuns = new QComboBox(trained);
    m_trainedRuns->setObjectName(QStringLiteral("labTrainedRuns"));
    m_trainedRuns->setMinimumContentsLength(20);
    m_trainedRuns->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    tv->addWidget(m_trainedRuns);
    m_openRun = new QPushButton(tr("Open in &Main Window…"), trained);
    m_openRun->setToolTip(tr("The run's own attention on an example longer than its training, in the main "
                             "window's views"));
    tv->addWidget(m_openRun);
    connect(m_openRun, &QPushButton::clicked, this, [this] {
        const QString run = m_trainedRuns->currentData().toString();
        if (!run.isEmpty())
            emit openRunRequested(run);
    });
    v->addWidget(trained);
    connect(m_task, &QComboBox::currentIndexChanged, this, &LabWindow::updateDefaultFolder);
    connect(m_trainLen, &QSpinBox::valueChanged, this, &LabWindow::updateDefaultFolder);
    connect(m_steps, &QSpinBox::valueChanged, this, &LabWindow::updateDefaultFolder);
    connect(m_model, &QComboBox::currentIndexChanged, this, &LabWindow::updateDefaultFolder);

    v->addStretch(1);
    return w;
}

void LabWindow::updateTrainedRuns()
{
    const QString current = m_trainedRuns->currentData().toString();
    m_trainedRuns->clear();
    for (const ShippedRunEntry& e : shipped_run_entries())
        m_trainedRuns->addItem(tr("Shipped runs: %1").arg(e.label), e.dir);
    // The complete runs of the output folder (a sweep's OUT/METHOD/seed-N).
    const std::string folder = m_folder->text().trimmed().toStdString();
    for (const std::string& m : lab::lab_methods())
        for (int seed = 0; seed < 1000; ++seed) {
            const std::string dir = lab::sweep_run_folder(folder, m, seed);
            if (!lab::sweep_run_complete(dir))
                break;
            m_trainedRuns->addItem(tr("This sweep: %1 seed %2").arg(QString::fromStdString(m)).arg(seed),
                                   QString::fromStdString(dir));
        }
    const int index = m_trainedRuns->findData(current);
    if (index >= 0)
        m_trainedRuns->setCurrentIndex(index);
    m_openRun->setEnabled(m_trainedRuns->count() > 0);
}

void LabWindow::setLabExecutable(const QString& path)
{
    const QFileInfo info(path);
    m_lab = !path.isEmpty() && info.isFile() && info.isExecutable() ? path : QString();
    m_installed->setVisible(m_lab.isEmpty());
    updateButtons();
}

QString LabWindow::defaultFolder(const QString& task, int trainLen, int steps)
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
           QStringLiteral("/lab/sweep-%1-%2-%3").arg(task).arg(trainLen).arg(steps);
}

void LabWindow::updateDefaultFolder()
{
    // A folder per task, length, steps and model: a sweep with other settings does not reuse these runs.
    QString folder = defaultFolder(m_task->currentData().toString(), m_trainLen->value(), m_steps->value());
    if (m_model->currentIndex() == 1)
        folder += QStringLiteral("-tiny");
    if (m_folder->text().isEmpty() || m_folder->text() == m_autoFolder)
        m_folder->setText(folder);
    m_autoFolder = folder;
}

void LabWindow::updateButtons()
{
    const bool running = m_runner->running();
    m_run->setEnabled(labInstalled() && !running);
    m_cancel->setEnabled(running);
}

QString LabWindow::fieldName(const std::string& option) const
{
    if (option == "methods")
        return tr("Encodings");
    if (option == "lengths")
        return tr("Evaluation lengths");
    if (option == "out")
        return tr("Output folder");
    if (option == "train-len")
        return tr("Train length");
    if (option == "steps")
        return tr("Steps");
    if (option == "seeds")
        return tr("Seeds");
    if (option == "factor")
        return tr("Factor");
    return QStringLiteral("--") + QString::fromStdString(option);
}

std::optional<LabSweepPlan> LabWindow::plan()
{
    LabSweepPlan p;
    p.lab = m_lab;
    p.dir = m_folder->text().trimmed();
    lab::SweepTable& t = p.table;
    t.task = m_task->currentData().toString().toStdString();
    t.train_len = m_trainLen->value();
    t.seeds = m_seeds->value();
    t.rope_type = m_ropeScaling->currentData().toString().toStdString();
    t.factor = t.rope_type == "default" ? 1.0 : m_factor->value();
    const ModelSize& size = kModelSizes[m_model->currentIndex() == 1 ? 1 : 0];
    try {
        std::string chosen;
        for (const std::string& m : lab::lab_methods())
            if (m_methods.at(QString::fromStdString(m))->isChecked())
                chosen += (chosen.empty() ? "" : ",") + m;
        t.methods = lab::sweep_methods(chosen);
        std::vector<double> lengths;
        for (const QString& item : m_lengths->text().split(u',', Qt::SkipEmptyParts)) {
            bool ok = false;
            const double v = item.trimmed().toDouble(&ok);
            lengths.push_back(ok ? v : std::numeric_limits<double>::quiet_NaN());
        }
        t.lengths = lab::sweep_lengths(lengths, m_lengths->text().toStdString());
        if (p.dir.isEmpty())
            throw ParameterError("out", "a new folder, an empty folder or a sweep's folder", "");
        lab::check_sweep_folder(p.dir.toStdString());
        // lm reads the built-in course, as posatlas-lab finds it (lab.h default_corpus).
        lab::Corpus corpus;
        if (t.task == "lm") {
            const std::string path = lab::default_corpus();
            if (path.empty()) {
                showStatus(tr("The lm task reads the course's lessons, which were not found (they are "
                              "installed with the lab). Nothing was started."),
                           true);
                return std::nullopt;
            }
            corpus = lab::load_corpus(path);
        }
        // Every run's configuration, checked as `lab train` checks it (memory budget included).
        for (const std::string& m : t.methods)
            for (int s = 0; s < t.seeds; ++s) {
                lab::LabConfig c;
                c.task = t.task;
                c.method = m;
                c.train_len = t.train_len;
                c.steps = m_steps->value();
                c.warmup = lab::default_warmup(c.steps);
                c.seed = static_cast<std::uint64_t>(s);
                c.layers = size.layers;
                c.d_model = size.d_model;
                c.heads = size.heads;
                c.batch = size.batch;
                lab::validate(c);
                if (c.language_model()) {
                    lab::fit_corpus(c, corpus);
                    lab::validate(c); // the memory estimate with the corpus's vocabulary
                }
            }
    } catch (const ParameterError& e) {
        const QString got = e.got().empty() ? tr("nothing") : QString::fromStdString(e.got());
        showStatus(tr("%1 must be %2 (got %3). Nothing was started.")
                       .arg(fieldName(e.parameter()), allowedText(e.allowed()), got),
                   true);
        return std::nullopt;
    }
    p.training = {
        QStringLiteral("--task"),      QString::fromStdString(t.task), QStringLiteral("--train-len"),
        QString::number(t.train_len),  QStringLiteral("--steps"),      QString::number(m_steps->value()),
        QStringLiteral("--layers"),    QString::number(size.layers),   QStringLiteral("--d-model"),
        QString::number(size.d_model), QStringLiteral("--heads"),      QString::number(size.heads),
        QStringLiteral("--batch"),     QString::number(size.batch)};
    return p;
}

bool LabWindow::run()
{
    if (m_runner->running())
        return false;
    if (!labInstalled()) {
        showStatus(m_installed->text(), true);
        return false;
    }
    const std::optional<LabSweepPlan> p = plan();
    if (!p)
        return false;
    showStatus(tr("Sweep started: %1 (runs: %2).")
                   .arg(p->dir)
                   .arg(static_cast<int>(p->table.methods.size()) * p->table.seeds));
    m_progress->setValue(0);
    m_runner->start(*p);
    updateButtons();
    return true;
}

void LabWindow::cancel()
{
    if (!m_runner->running())
        return;
    m_progressLabel->setText(tr("Cancelling…"));
    m_runner->cancel();
}

void LabWindow::onRunStarted(int index, int count, const QString& method, int seed, bool reused)
{
    m_runIndex = index;
    m_runCount = count;
    m_progress->setValue(static_cast<int>(1000.0 * index / count));
    m_progressLabel->setText(
        reused ? tr("Run %1 of %2: %3, seed %4 · complete, reused")
                     .arg(index + 1)
                     .arg(count)
                     .arg(method)
                     .arg(seed)
               : tr("Run %1 of %2: %3, seed %4 · training").arg(index + 1).arg(count).arg(method).arg(seed));
}

void LabWindow::onProgress(int step, int steps, double loss, double accuracy, double secondsLeft)
{
    if (steps <= 0 || m_runCount <= 0)
        return;
    m_progress->setValue(
        static_cast<int>(1000.0 * (m_runIndex + static_cast<double>(step) / steps) / m_runCount));
    const QString method = QString::fromStdString(
        m_runner->table()
            .methods[static_cast<std::size_t>(m_runIndex / std::max(1, m_runner->table().seeds))]);
    m_progressLabel->setText(
        tr("Run %1 of %2: %3, seed %4 · step %5 of %6 · loss %7 · accuracy %8 % · %9 left in this run")
            .arg(m_runIndex + 1)
            .arg(m_runCount)
            .arg(method)
            .arg(m_runIndex % std::max(1, m_runner->table().seeds))
            .arg(step)
            .arg(steps)
            .arg(loss, 0, 'f', 4)
            .arg(100 * accuracy, 0, 'f', 1)
            .arg(timeLeft(secondsLeft)));
}

void LabWindow::onFinished(LabSweepRunner::Outcome outcome, const QString& message)
{
    updateButtons();
    updateFigure();
    updateTrainedRuns();
    switch (outcome) {
    case LabSweepRunner::Outcome::Complete:
        m_progress->setValue(1000);
        m_progressLabel->setText(tr("Done: every run evaluated."));
        showStatus(tr("Wrote sweep.csv and sweep.json in %1.").arg(m_runner->plan().dir));
        break;
    case LabSweepRunner::Outcome::Cancelled:
        m_progressLabel->clear();
        showStatus(message);
        break;
    case LabSweepRunner::Outcome::Failed:
        m_progressLabel->clear();
        showStatus(message, true);
        break;
    }
}

void LabWindow::updateFigure()
{
    lab::SweepTable t = m_runner->table();
    if (!m_runner->running() && t.methods.empty()) { // nothing run yet: the axes of the fields' sweep
        t.task = m_task->currentData().toString().toStdString();
        t.train_len = m_trainLen->value();
    }
    m_figure = LabSweepFigure(lab_sweep_curves(t));
    m_chart->setCurveData(m_figure.data());
}

void LabWindow::showStatus(const QString& message, bool error)
{
    m_statusText = message;
    // A long path has no space to wrap at: a zero-width space after each slash lets it wrap there.
    QString shown = message;
    shown.replace(u'/', QStringLiteral("/\u200b"));
    m_status->setText(shown);
    m_status->setToolTip(message);
    m_statusError = error;
    m_status->setStyleSheet(error ? QStringLiteral("QLabel { color: %1; }").arg(errorColor()) : QString());
}

QString LabWindow::errorColor() const
{
    // Dark red on a light window, light red on a dark one: legible (WCAG AA) either way.
    return palette_is_dark(palette()) ? QStringLiteral("#ff8a80") : QStringLiteral("#b00020");
}

QString LabWindow::statusText() const
{
    return m_statusText;
}

QString LabWindow::progressText() const
{
    return m_progressLabel->text();
}

bool LabWindow::exportFigure(const QString& path)
{
    try {
        FigureExportOptions o;
        o.title = m_figure.figureTitle();
        o.render.caption = tr("PosAtlas lab · %1").arg(m_runner->plan().dir);
        export_figure(m_figure, path, o);
        showStatus(tr("Wrote %1").arg(path));
        return true;
    } catch (const std::exception& e) {
        showStatus(QString::fromUtf8(e.what()), true);
        return false;
    }
}

bool LabWindow::exportTable(const QString& path)
{
    const std::optional<ExportFormat> f = export_format_from_path(path);
    if (f != ExportFormat::Csv && f != ExportFormat::Json) {
        showStatus(tr("%1: the table is written as .csv or .json").arg(path), true);
        return false;
    }
    try {
        const lab::SweepTable& t = m_runner->table();
        const std::string bytes = f == ExportFormat::Csv ? lab::sweep_csv(t) : lab::sweep_json(t);
        write_file_atomically(path, QByteArray::fromStdString(bytes));
        showStatus(tr("Wrote %1").arg(path));
        return true;
    } catch (const std::exception& e) {
        showStatus(QString::fromUtf8(e.what()), true);
        return false;
    }
}

} // namespace posatlas::ui

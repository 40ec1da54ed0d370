// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/animation_dialog.h"

#include "export/animation_preview.h"
#include "export/animation_run.h"
#include "export/export_dialog.h"
#include "io/number_text.h"
#include "methods/registry.h"
#include "model/session.h"
#include "views/figure_style.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace posatlas::ui {

namespace {

constexpr int kPreviewDebounceMs = 300;

QString formatExtension(AnimationFormat f)
{
    switch (f) {
    case AnimationFormat::Mp4: return QStringLiteral("mp4");
    case AnimationFormat::Gif: return QStringLiteral("gif");
    case AnimationFormat::Apng: return QStringLiteral("png");
    }
    return {};
}

bool numericField(const Field& f, const Scenario& s)
{
    const bool numeric =
        f.type == FieldType::Int || f.type == FieldType::Real || f.type == FieldType::OptionalReal;
    return numeric && f.panel && (!f.shown || f.shown(s));
}

AnimationField fromRegistry(const Field& f, const Scenario& s)
{
    AnimationField a;
    a.key = f.key;
    a.label = QCoreApplication::translate("ParamSpec", f.label);
    a.lo = f.lo;
    a.hi = f.hi;
    a.lo_open = f.lo_open;
    a.integer = f.type == FieldType::Int;
    a.log = f.log_scale;
    a.current = f.number(s);
    return a;
}

// A number as typed, in the C locale or the interface's ("1e4", "0,5"); nullopt for anything else.
std::optional<double> parseNumber(const QString& text)
{
    bool ok = false;
    double v = QLocale::c().toDouble(text.trimmed(), &ok);
    if (!ok)
        v = QLocale().toDouble(text.trimmed(), &ok);
    if (!ok || !std::isfinite(v))
        return std::nullopt;
    return v;
}

QString numberText(double v)
{
    return QString::fromStdString(posatlas::format_number(v));
}

} // namespace

std::vector<AnimationField> animation_fields(const Scenario& s, const ViewSettings& settings, ViewKind view)
{
    std::vector<AnimationField> fields;
    for (const Field& f : descriptor(s.method).fields)
        if (numericField(f, s))
            fields.push_back(fromRegistry(f, s));
    for (const Field& f : common_fields())
        if (numericField(f, s))
            fields.push_back(fromRegistry(f, s));
    if (view == ViewKind::Rotation) {
        const double last = std::max<double>(0.0, static_cast<double>(s.seq_len - 1));
        fields.push_back({std::string(kQueryPositionField), AnimationDialog::tr("Query position m"), 0.0,
                          last, false, true, false, static_cast<double>(settings.query_position)});
        fields.push_back({std::string(kKeyPositionField), AnimationDialog::tr("Key position n"), 0.0, last,
                          false, true, false, static_cast<double>(settings.key_position)});
    }
    return fields;
}

AnimationDialog::AnimationDialog(const AnimationRequest& base, QWidget* parent)
    : QDialog(parent), m_base(base), m_fields(animation_fields(base.scenario, base.settings, base.view))
{
    setWindowTitle(tr("Export Animation"));
    setObjectName(QStringLiteral("AnimationDialog"));

    m_field = new QComboBox;
    for (const AnimationField& f : m_fields)
        m_field->addItem(f.label.contains(QString::fromStdString(f.key))
                             ? f.label
                             : QStringLiteral("%1 (%2)").arg(f.label, QString::fromStdString(f.key)),
                         QString::fromStdString(f.key));
    m_field->setToolTip(tr("The value that changes from frame to frame; every other value stays as it is"));
    m_from = new QLineEdit;
    m_to = new QLineEdit;
    m_log = new QCheckBox(tr("&Log steps"));
    m_log->setToolTip(tr("Equal ratios between frames (from and to above 0) instead of equal differences"));
    auto* rangeRow = new QHBoxLayout;
    rangeRow->addWidget(m_from, 1);
    rangeRow->addWidget(new QLabel(tr("to")));
    rangeRow->addWidget(m_to, 1);
    rangeRow->addWidget(m_log);

    m_frames = new QSpinBox;
    m_frames->setRange(1, kMaxAnimationFrames);
    m_frames->setValue(60);
    m_fps = new QSpinBox;
    m_fps->setRange(1, 120);
    m_fps->setValue(20);
    m_fps->setSuffix(tr(" fps"));
    auto* timeRow = new QHBoxLayout;
    timeRow->addWidget(m_frames);
    timeRow->addWidget(new QLabel(tr("frames at")));
    timeRow->addWidget(m_fps);
    timeRow->addStretch(1);

    m_preset = new QComboBox;
    for (const FigureSizePreset& p : figure_size_presets())
        m_preset->addItem(p.label);
    m_width = new QSpinBox;
    m_height = new QSpinBox;
    for (QSpinBox* s : {m_width, m_height}) {
        s->setRange(16, 8192);
        s->setSuffix(tr(" px"));
        s->setToolTip(tr("CSS pixels (1/96 inch): the figure's layout size. Frame pixels = this × dpi / 96"));
    }
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_preset, 1);
    sizeRow->addWidget(m_width);
    sizeRow->addWidget(new QLabel(QStringLiteral("×")));
    sizeRow->addWidget(m_height);
    m_dpi = new QSpinBox;
    m_dpi->setRange(24, 1200);
    m_dpi->setSuffix(tr(" dpi"));
    m_dpi->setToolTip(tr("96 dpi = 1x, 192 = 2x: the same layout at more pixels"));

    m_format = new QComboBox;
    m_format->addItem(tr("MP4 video (H.264)"), static_cast<int>(AnimationFormat::Mp4));
    m_format->addItem(tr("GIF"), static_cast<int>(AnimationFormat::Gif));
    m_format->addItem(tr("Animated PNG"), static_cast<int>(AnimationFormat::Apng));
    m_file = new QLineEdit;
    m_file->setMinimumWidth(320);
    auto* browse = new QPushButton(tr("&Browse…"));
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browse);

    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    QPalette muted = m_summary->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::Disabled, QPalette::WindowText));
    m_summary->setPalette(muted);
    m_message = new QLabel;
    m_message->setObjectName(QStringLiteral("animationMessage"));
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText);
    QPalette red = m_message->palette();
    red.setColor(QPalette::WindowText, QColor(0xc0, 0x1c, 0x28));
    m_message->setPalette(red);

    auto* form = new QFormLayout;
    auto buddyLabel = [](const QString& text, QWidget* buddy) {
        auto* label = new QLabel(text);
        label->setBuddy(buddy);
        return label;
    };
    form->addRow(tr("&Moving value:"), m_field);
    form->addRow(buddyLabel(tr("&From:"), m_from), rangeRow);
    form->addRow(buddyLabel(tr("Fra&mes:"), m_frames), timeRow);
    form->addRow(buddyLabel(tr("&Size:"), m_preset), sizeRow);
    form->addRow(tr("&Resolution:"), m_dpi);
    form->addRow(tr("F&ormat:"), m_format);
    form->addRow(buddyLabel(tr("F&ile:"), m_file), fileRow);

    m_preview = new AnimationPreview;
    m_preview->setObjectName(QStringLiteral("animationPreview"));
    m_preview->setFixedSize(AnimationPreview::kDefaultWidth + 8, AnimationPreview::kDefaultWidth * 2 / 3);
    m_preview->setFrameShape(QFrame::StyledPanel);
    auto* previewBox = new QVBoxLayout;
    previewBox->addWidget(new QLabel(tr("Preview (the first frames):")));
    previewBox->addWidget(m_preview);
    previewBox->addStretch(1);

    auto* top = new QHBoxLayout;
    top->addLayout(form, 1);
    top->addLayout(previewBox);

    m_progress = new QProgressBar;
    m_progress->setRange(0, 100);
    m_progress->setVisible(false);
    auto* buttons = new QDialogButtonBox;
    m_export = buttons->addButton(tr("&Export"), QDialogButtonBox::AcceptRole);
    m_close = buttons->addButton(QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &AnimationDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &AnimationDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addWidget(m_message);
    layout->addWidget(m_progress);
    layout->addWidget(buttons);

    m_previewTimer.setSingleShot(true);
    m_previewTimer.setInterval(kPreviewDebounceMs);
    connect(&m_previewTimer, &QTimer::timeout, this, &AnimationDialog::updatePreview);

    // The form from the base request: its figure, rate and format, and its sweep when it names a field.
    const FigureExportOptions& fig = base.figure;
    m_width->setValue(static_cast<int>(std::lround(fig.size.width())));
    m_height->setValue(static_cast<int>(std::lround(fig.size.height())));
    m_dpi->setValue(static_cast<int>(std::lround(fig.dpi)));
    m_fps->setValue(std::clamp(base.fps, 1, 120));
    m_format->setCurrentIndex(m_format->findData(static_cast<int>(base.format)));
    m_file->setText(QDir::home().filePath(
        QStringLiteral("posatlas-%1.%2").arg(view_kind_id(base.view), formatExtension(base.format))));
    // The moving value by default: the base θ when the method has one (what a rotary method's animation
    // most often shows, in log steps), else the first numeric field.
    if (const int theta = m_field->findData(QStringLiteral("rope_theta")); theta >= 0)
        m_field->setCurrentIndex(theta);
    fieldChosen();
    if (!base.sweep.field.empty())
        setRequest(base);

    connect(m_field, &QComboBox::currentIndexChanged, this, &AnimationDialog::fieldChosen);
    for (QLineEdit* e : {m_from, m_to})
        connect(e, &QLineEdit::textChanged, this, &AnimationDialog::settingsEdited);
    connect(m_log, &QCheckBox::toggled, this, &AnimationDialog::settingsEdited);
    for (QSpinBox* s : {m_frames, m_fps, m_dpi})
        connect(s, &QSpinBox::valueChanged, this, &AnimationDialog::settingsEdited);
    for (QSpinBox* s : {m_width, m_height})
        connect(s, &QSpinBox::valueChanged, this, [this] {
            const auto presets = figure_size_presets();
            int match = 0;
            for (int i = 1; i < presets.size(); ++i)
                if (presets[i].width == m_width->value() && presets[i].height == m_height->value())
                    match = i;
            const QSignalBlocker block(m_preset);
            m_preset->setCurrentIndex(match);
            settingsEdited();
        });
    connect(m_preset, &QComboBox::activated, this, [this](int i) {
        const auto presets = figure_size_presets();
        if (i <= 0 || i >= presets.size())
            return;
        const QSignalBlocker bw(m_width), bh(m_height);
        m_width->setValue(presets[i].width);
        m_height->setValue(presets[i].height);
        settingsEdited();
    });
    connect(m_format, &QComboBox::currentIndexChanged, this, &AnimationDialog::formatChosen);
    connect(m_file, &QLineEdit::textChanged, this, &AnimationDialog::fileEdited);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString filter = tr("MP4 video (*.mp4);;GIF (*.gif);;Animated PNG (*.png *.apng)");
        const QString p = QFileDialog::getSaveFileName(this, tr("Export animation"), path(), filter);
        if (p.isEmpty())
            return;
        m_file->setText(p);
        m_confirmedPath = path();
    });
    settingsEdited();
}

AnimationDialog::~AnimationDialog() = default;

AnimationFormat AnimationDialog::format() const
{
    return static_cast<AnimationFormat>(m_format->currentData().toInt());
}

void AnimationDialog::fieldChosen()
{
    const int i = m_field->currentIndex();
    if (i < 0 || i >= static_cast<int>(m_fields.size()))
        return;
    // The registry's range and scale as the defaults; a log field whose range starts at (or below) 0
    // starts at the current value, the least surprising end above 0.
    const AnimationField& f = m_fields[static_cast<std::size_t>(i)];
    double from = f.lo;
    if (f.lo_open || (f.log && f.lo <= 0.0))
        from = f.current > f.lo && f.current < f.hi ? f.current : f.hi / 1000.0;
    const QSignalBlocker bf(m_from), bt(m_to), bl(m_log);
    m_from->setText(numberText(from));
    m_to->setText(numberText(f.hi));
    m_log->setChecked(f.log);
    settingsEdited();
}

void AnimationDialog::setRequest(const AnimationRequest& r)
{
    const int i = m_field->findData(QString::fromStdString(r.sweep.field));
    if (i >= 0) {
        const QSignalBlocker block(m_field);
        m_field->setCurrentIndex(i);
    }
    const QSignalBlocker bf(m_from), bt(m_to), bl(m_log), bn(m_frames), bs(m_fps), bw(m_width), bh(m_height),
        bd(m_dpi);
    m_from->setText(numberText(r.sweep.from));
    m_to->setText(numberText(r.sweep.to));
    m_log->setChecked(r.sweep.log);
    m_frames->setValue(r.sweep.frames);
    m_fps->setValue(r.fps);
    m_width->setValue(static_cast<int>(std::lround(r.figure.size.width())));
    m_height->setValue(static_cast<int>(std::lround(r.figure.size.height())));
    m_dpi->setValue(static_cast<int>(std::lround(r.figure.dpi)));
    m_format->setCurrentIndex(m_format->findData(static_cast<int>(r.format)));
    settingsEdited();
}

void AnimationDialog::setPath(const QString& p)
{
    m_file->setText(p);
}

QString AnimationDialog::path() const
{
    QString p = m_file->text().trimmed();
    if (!p.isEmpty() && !animation_format_from_path(QFile::encodeName(p).toStdString()))
        p += QLatin1Char('.') + formatExtension(format());
    return p;
}

AnimationRequest AnimationDialog::request(QString* error) const
{
    AnimationRequest r = m_base;
    r.sweep.field = m_field->currentData().toString().toStdString();
    r.sweep.log = m_log->isChecked();
    r.sweep.frames = m_frames->value();
    r.fps = m_fps->value();
    r.format = format();
    r.figure.size = QSizeF(m_width->value(), m_height->value());
    r.figure.dpi = m_dpi->value();
    r.settings = export_view_settings(m_base.settings, r.figure);
    const int i = m_field->currentIndex();
    const QString label = i >= 0 && i < static_cast<int>(m_fields.size())
                              ? m_fields[static_cast<std::size_t>(i)].label
                              : QString::fromStdString(r.sweep.field);
    QString message;
    const auto from = parseNumber(m_from->text()), to = parseNumber(m_to->text());
    if (!from || !to) {
        message = tr("%1: \"%2\" is not a number").arg(label, (!from ? m_from : m_to)->text());
    } else {
        r.sweep.from = *from;
        r.sweep.to = *to;
        try {
            check_animation_request(r);
        } catch (const ParameterError& e) {
            // The dialog's name of the parameter, with the option the command line knows it by.
            const QString parameter = QString::fromStdString(e.parameter());
            QString named = parameter;
            const QString key = QString::fromStdString(r.sweep.field);
            if (parameter == QLatin1String("animate"))
                named = label.contains(key) ? label : QStringLiteral("%1 (%2)").arg(label, key);
            else if (parameter == QLatin1String("frames"))
                named = tr("Frames (frames)");
            else if (parameter == QLatin1String("fps"))
                named = tr("Frames per second (fps)");
            else if (parameter == QLatin1String("width"))
                named = tr("The frame's width in pixels (width = size × dpi / 96)");
            else if (parameter == QLatin1String("height"))
                named = tr("The frame's height in pixels (height = size × dpi / 96)");
            message = tr("%1 must be %2 (got %3)")
                          .arg(named, QString::fromStdString(e.allowed()), QString::fromStdString(e.got()));
        } catch (const std::exception& e) {
            message = QString::fromUtf8(e.what());
        }
    }
    if (error)
        *error = message;
    return r;
}

QString AnimationDialog::message() const
{
    return m_message->text();
}

void AnimationDialog::settingsEdited()
{
    QString error;
    request(&error);
    m_message->setText(error);
    m_message->setVisible(!error.isEmpty());
    m_export->setEnabled(error.isEmpty() && !exporting());
    updateSummary();
    if (!error.isEmpty()) {
        m_previewTimer.stop();
        m_preview->showMessage(tr("No preview: %1").arg(error));
        return;
    }
    if (!exporting())
        m_previewTimer.start(); // debounced: typing "500000" computes one preview, not six
}

void AnimationDialog::updatePreview()
{
    QString error;
    const AnimationRequest r = request(&error);
    if (error.isEmpty() && !exporting())
        m_preview->play(r);
}

void AnimationDialog::updateSummary()
{
    const double scale = m_dpi->value() / 96.0;
    const double seconds = static_cast<double>(m_frames->value()) / m_fps->value();
    m_summary->setText(tr("%1 frames of %2 × %3 pixels, %4 s.")
                           .arg(m_frames->value())
                           .arg(std::lround(m_width->value() * scale))
                           .arg(std::lround(m_height->value() * scale))
                           .arg(format_number(seconds, 3)));
}

void AnimationDialog::formatChosen()
{
    QString p = m_file->text().trimmed();
    if (!p.isEmpty()) {
        if (animation_format_from_path(QFile::encodeName(p).toStdString()))
            p.chop(QFileInfo(p).suffix().size() + 1);
        const QSignalBlocker block(m_file);
        m_file->setText(p + QLatin1Char('.') + formatExtension(format()));
    }
    settingsEdited(); // the format's limits (GIF: at most 50 fps; MP4: even sides)
}

void AnimationDialog::fileEdited()
{
    const auto f = animation_format_from_path(QFile::encodeName(m_file->text().trimmed()).toStdString());
    if (f && *f != format()) {
        const QSignalBlocker block(m_format);
        m_format->setCurrentIndex(m_format->findData(static_cast<int>(*f)));
        settingsEdited();
    }
}

bool AnimationDialog::exporting() const
{
    return m_run && m_run->running();
}

bool AnimationDialog::startExport()
{
    QString error;
    const AnimationRequest r = request(&error);
    if (error.isEmpty() && path().isEmpty())
        error = tr("Choose a file name.");
    if (!error.isEmpty()) {
        m_message->setText(error);
        m_message->setVisible(true);
        return false;
    }
    // A newer export wins: the one running (if any) is cancelled and leaves no file.
    m_run.reset();
    m_previewTimer.stop();
    m_preview->stop(); // the export has the processor to itself
    m_run = std::make_unique<AnimationRun>(r, path());
    AnimationRun* run = m_run.get();
    connect(run, &AnimationRun::progressChanged, m_progress, &QProgressBar::setValue);
    connect(run, &AnimationRun::finished, this, [this] {
        const QString written = m_run->path();
        exportEnded();
        emit exported(written);
        QDialog::accept();
    });
    connect(run, &AnimationRun::failed, this, [this](const QString& message) {
        exportEnded();
        m_message->setText(tr("Export failed: %1").arg(message));
        m_message->setVisible(true);
        emit exportFailed(message);
    });
    connect(run, &AnimationRun::cancelled, this, [this] {
        exportEnded();
        m_message->setText(tr("Export cancelled: no file was written."));
        m_message->setVisible(true);
        emit exportCancelled();
    });
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_export->setEnabled(false);
    m_close->setText(tr("Cancel export"));
    run->start();
    return true;
}

void AnimationDialog::exportEnded()
{
    m_progress->setVisible(false);
    m_close->setText(tr("Cancel"));
    m_export->setEnabled(true);
    m_previewTimer.start();
}

void AnimationDialog::cancelExport()
{
    if (m_run)
        m_run->cancel();
}

void AnimationDialog::accept()
{
    if (exporting())
        return;
    const QString p = path();
    if (!p.isEmpty() && p != m_confirmedPath && QFileInfo::exists(p) &&
        QMessageBox::question(this, windowTitle(),
                              tr("Replace the existing file?\n%1").arg(QDir::toNativeSeparators(p))) !=
            QMessageBox::Yes)
        return;
    startExport();
}

void AnimationDialog::reject()
{
    if (exporting()) {
        cancelExport(); // the dialog stays: the message says no file was written
        return;
    }
    m_preview->stop();
    QDialog::reject();
}

} // namespace posatlas::ui

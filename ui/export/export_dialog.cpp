// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/export_dialog.h"

#include "model/session.h"
#include "views/figure_style.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

namespace posatlas::ui {
namespace {

constexpr double kCssDpi = 96.0;

QString viewTitle(ViewKind k)
{
    switch (k) {
    case ViewKind::Heatmap: return ExportDialog::tr("Heatmap");
    case ViewKind::Curves: return ExportDialog::tr("Curves");
    case ViewKind::Rotation: return ExportDialog::tr("Rotation");
    case ViewKind::Spectrum: return ExportDialog::tr("Spectrum");
    }
    return {};
}

// The combo's data id of a file name's extension ("svg" of "fig.SVG"), empty for an unknown one.
QString formatId(const QString& path)
{
    const auto f = export_format_from_path(path);
    if (!f)
        return {};
    switch (*f) {
    case ExportFormat::Png: return QStringLiteral("png");
    case ExportFormat::Svg: return QStringLiteral("svg");
    case ExportFormat::Pdf: return QStringLiteral("pdf");
    case ExportFormat::Csv: return QStringLiteral("csv");
    case ExportFormat::Json: return QStringLiteral("json");
    }
    return {};
}

bool isKnownFormat(const QString& path)
{
    return !formatId(path).isEmpty();
}

} // namespace

QStringList figure_export_paths(const QString& path, const QList<ViewKind>& views)
{
    if (views.size() == 1)
        return {path};
    const QFileInfo info(path);
    // completeBaseName keeps "fig.v2" of "fig.v2.png"; the suffix is the last extension only.
    const QString stem = info.completeBaseName();
    const QString suffix = info.suffix();
    QStringList paths;
    for (ViewKind k : views) {
        const QString name = stem + QLatin1Char('-') + view_kind_id(k) +
                             (suffix.isEmpty() ? QString() : QLatin1Char('.') + suffix);
        paths.append(info.dir().filePath(name));
    }
    return paths;
}

QList<FigureSizePreset> figure_size_presets()
{
    // Slides are seen from the back of a room: larger text. A paper column is 3.5 in (8.9 cm) wide
    // at 96 px per inch (the figure's coordinate space); printed at that size the screen font would be
    // about 9 pt, so it is scaled down a little to leave room for the data.
    return {
        {ExportDialog::tr("Custom"), 0, 0, 0.0},
        {ExportDialog::tr("Screen, 1200 × 800"), 1200, 800, 1.0},
        {ExportDialog::tr("Full HD, 1920 × 1080"), 1920, 1080, 1.25},
        {ExportDialog::tr("Slide 16:9, 1280 × 720, large text"), 1280, 720, 1.5},
        {ExportDialog::tr("Slide 4:3, 1024 × 768, large text"), 1024, 768, 1.4},
        {ExportDialog::tr("Paper column, 3.5 × 2.6 in"), 336, 252, 0.8},
        {ExportDialog::tr("Paper full width, 7 × 3.5 in"), 672, 336, 0.85},
    };
}

ExportDialog::ExportDialog(ViewKind current, const QString& caption, QWidget* parent)
    : QDialog(parent), m_suggestedCaption(caption)
{
    setWindowTitle(tr("Export Figure"));
    setObjectName(QStringLiteral("ExportDialog"));

    auto* viewsRow = new QHBoxLayout;
    for (ViewKind k : kAllViewKinds) {
        auto* box = new QCheckBox(viewTitle(k));
        box->setChecked(k == current);
        box->setToolTip(
            tr("With several views, one file per view: the view's name is appended to the file name"));
        connect(box, &QCheckBox::toggled, this, &ExportDialog::updateSummary);
        m_viewChecks[static_cast<std::size_t>(k)] = box;
        viewsRow->addWidget(box);
    }
    viewsRow->addStretch(1);
    m_viewsRow = viewsRow;

    m_file =
        new QLineEdit(QDir::home().filePath(QStringLiteral("posatlas-%1.png").arg(view_kind_id(current))));
    m_file->setMinimumWidth(360);
    connect(m_file, &QLineEdit::editingFinished, this, &ExportDialog::fileEdited);
    // The format follows the name as it is typed (not only when the field loses focus): "fig.svg"
    // shows SVG before the user presses Export.
    connect(m_file, &QLineEdit::textChanged, this, &ExportDialog::fileEdited);
    auto* browseButton = new QPushButton(tr("&Browse…"));
    connect(browseButton, &QPushButton::clicked, this, &ExportDialog::browse);
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browseButton);

    m_format = new QComboBox;
    m_format->addItem(tr("PNG image (raster)"), QStringLiteral("png"));
    m_format->addItem(tr("SVG (vector)"), QStringLiteral("svg"));
    m_format->addItem(tr("PDF (vector)"), QStringLiteral("pdf"));
    m_format->addItem(tr("CSV (the view's numbers)"), QStringLiteral("csv"));
    m_format->addItem(tr("JSON (the view's numbers)"), QStringLiteral("json"));
    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::formatChosen);

    m_preset = new QComboBox;
    for (const FigureSizePreset& p : figure_size_presets())
        m_preset->addItem(p.label);
    connect(m_preset, &QComboBox::activated, this, &ExportDialog::presetChosen);
    m_width = new QSpinBox;
    m_height = new QSpinBox;
    for (QSpinBox* s : {m_width, m_height}) {
        s->setRange(16, 20000);
        s->setSuffix(tr(" px"));
        s->setToolTip(tr("CSS pixels (1/96 inch): the figure's layout size. PNG pixels = this × dpi / 96"));
    }
    m_width->setValue(1200);
    m_height->setValue(800);
    for (QSpinBox* s : {m_width, m_height}) // after the values: sizeEdited reads every widget
        connect(s, &QSpinBox::valueChanged, this, &ExportDialog::sizeEdited);
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_preset, 1);
    sizeRow->addWidget(m_width);
    sizeRow->addWidget(new QLabel(QStringLiteral("×")));
    sizeRow->addWidget(m_height);

    m_dpi = new QSpinBox;
    m_dpi->setRange(24, 1200);
    m_dpi->setValue(192);
    m_dpi->setSuffix(tr(" dpi"));
    m_dpi->setToolTip(tr("PNG only. 96 dpi = 1x, 192 = 2x (sharp on high-density screens), 300+ for print"));
    connect(m_dpi, &QSpinBox::valueChanged, this, &ExportDialog::updateSummary);

    m_theme = new QComboBox;
    m_theme->addItem(tr("Light"), false);
    m_theme->addItem(tr("Dark"), true);

    m_fontScale = new QDoubleSpinBox;
    m_fontScale->setRange(0.5, 4.0);
    m_fontScale->setSingleStep(0.1);
    m_fontScale->setValue(1.0);
    m_fontScale->setPrefix(QStringLiteral("× "));
    m_fontScale->setToolTip(tr("Larger text for projectors and slides, smaller for paper columns"));

    m_captionOn = new QCheckBox(tr("Ca&ption:"));
    m_caption = new QLineEdit(caption);
    m_caption->setEnabled(false);
    connect(m_captionOn, &QCheckBox::toggled, m_caption, &QWidget::setEnabled);
    auto* captionRow = new QHBoxLayout;
    captionRow->addWidget(m_captionOn);
    captionRow->addWidget(m_caption, 1);

    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    // Room for the longest summary (four views' file names) from the start: ticking views must not
    // grow the dialog and move the buttons under the pointer.
    m_summary->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_summary->setFixedHeight(m_summary->fontMetrics().lineSpacing() * 5);
    m_summary->setMinimumWidth(m_summary->fontMetrics().averageCharWidth() * 60);
    QPalette muted = m_summary->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::Disabled, QPalette::WindowText));
    m_summary->setPalette(muted);

    auto* form = new QFormLayout;
    form->addRow(tr("Views:"), viewsRow);
    // Rows holding a layout get no buddy from QFormLayout: explicit labels keep the mnemonics.
    auto buddyLabel = [](const QString& text, QWidget* buddy) {
        auto* label = new QLabel(text);
        label->setBuddy(buddy);
        return label;
    };
    form->addRow(buddyLabel(tr("&File:"), m_file), fileRow);
    form->addRow(tr("F&ormat:"), m_format);
    form->addRow(buddyLabel(tr("&Size:"), m_preset), sizeRow);
    form->addRow(tr("PNG &resolution:"), m_dpi);
    form->addRow(tr("&Theme:"), m_theme);
    form->addRow(tr("Font s&cale:"), m_fontScale);
    form->addRow(captionRow);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);

    sizeEdited();
    formatChosen();
}

void ExportDialog::setSingleFigure(const QString& name, const QString& stem)
{
    for (QCheckBox* box : m_viewChecks) {
        box->setChecked(false);
        box->hide();
    }
    if (!m_singleFigure) {
        m_singleFigure = new QLabel;
        m_viewsRow->insertWidget(0, m_singleFigure);
    }
    m_singleFigure->setText(name);
    if (auto* form = findChild<QFormLayout*>())
        if (auto* label = qobject_cast<QLabel*>(form->labelForField(m_viewsRow)))
            label->setText(tr("Figure:"));
    const QString ext = extension();
    m_file->setText(QDir::home().filePath(stem + QLatin1Char('.') + ext));
    fileEdited();
}

void ExportDialog::setRequest(const FigureExportRequest& r)
{
    for (ViewKind k : kAllViewKinds)
        viewCheck(k)->setChecked(r.views.contains(k));
    if (!r.path.isEmpty()) {
        m_file->setText(r.path);
        fileEdited();
    }
    m_width->setValue(static_cast<int>(std::lround(r.options.size.width())));
    m_height->setValue(static_cast<int>(std::lround(r.options.size.height())));
    m_dpi->setValue(static_cast<int>(std::lround(r.options.dpi)));
    m_theme->setCurrentIndex(r.options.render.dark ? 1 : 0);
    m_fontScale->setValue(r.options.render.font_scale);
    m_captionOn->setChecked(!r.options.render.caption.isEmpty());
    if (!r.options.render.caption.isEmpty())
        m_caption->setText(r.options.render.caption);
    updateSummary();
}

void ExportDialog::restoreChoices(FigureExportRequest previous)
{
    if (!previous.options.render.caption.isEmpty())
        previous.options.render.caption = m_suggestedCaption;
    if (isSingleFigure())
        previous.views.clear();
    setRequest(previous);
}

std::optional<FigureExportRequest>
ExportDialog::execUntilWritten(const QString& failure,
                               const std::function<void(const FigureExportRequest&)>& write)
{
    while (exec() == QDialog::Accepted) {
        const FigureExportRequest r = request();
        QApplication::setOverrideCursor(Qt::WaitCursor);
        try {
            write(r);
            QApplication::restoreOverrideCursor();
            return r;
        } catch (const ExportError& e) {
            QApplication::restoreOverrideCursor();
            QMessageBox::warning(parentWidget() ? parentWidget() : this, failure,
                                 QString::fromUtf8(e.what()));
        }
    }
    return std::nullopt;
}

FigureExportRequest ExportDialog::request() const
{
    FigureExportRequest r;
    r.views.clear();
    for (ViewKind k : kAllViewKinds)
        if (viewCheck(k)->isChecked())
            r.views.append(k);
    r.path = m_file->text().trimmed();
    if (!r.path.isEmpty() && !isKnownFormat(r.path))
        r.path += QLatin1Char('.') + extension();
    r.options.size = QSizeF(m_width->value(), m_height->value());
    r.options.dpi = m_dpi->value();
    r.options.render.dark = m_theme->currentData().toBool();
    r.options.render.font_scale = m_fontScale->value();
    r.options.render.caption = m_captionOn->isChecked() ? m_caption->text().trimmed() : QString();
    return r;
}

QString ExportDialog::extension() const
{
    return m_format->currentData().toString();
}

void ExportDialog::browse()
{
    const QStringList filters{tr("PNG image (*.png)"), tr("SVG (*.svg)"), tr("PDF (*.pdf)"),
                              tr("CSV (*.csv)"), tr("JSON (*.json)")};
    const QString filter = filters.join(QStringLiteral(";;"));
    QString selected = filters.value(m_format->currentIndex(), filters.front());
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export figure"), request().path, filter, &selected);
    if (path.isEmpty())
        return;
    m_file->setText(path);
    fileEdited();
    m_confirmedPath = request().path;
}

void ExportDialog::fileEdited()
{
    // A typed extension picks the format; an unknown one keeps it (request() then appends its extension).
    const QString ext = formatId(m_file->text().trimmed());
    if (!ext.isEmpty() && ext != extension()) {
        const QSignalBlocker block(m_format);
        m_format->setCurrentIndex(m_format->findData(ext));
    }
    updateEnabled();
    updateSummary();
}

void ExportDialog::formatChosen()
{
    // The chosen format replaces the file's figure extension (or is appended).
    QString path = m_file->text().trimmed();
    if (!path.isEmpty()) {
        if (isKnownFormat(path))
            path.chop(QFileInfo(path).suffix().size() + 1);
        const QSignalBlocker block(m_file); // the new name has the chosen format: nothing to follow
        m_file->setText(path + QLatin1Char('.') + extension());
    }
    updateEnabled();
    updateSummary();
}

bool ExportDialog::isDataFormat() const
{
    return extension() == QLatin1String("csv") || extension() == QLatin1String("json");
}

void ExportDialog::updateEnabled()
{
    // Numbers have no size, resolution, theme or caption; a vector figure has no resolution.
    const bool figure = !isDataFormat();
    m_dpi->setEnabled(extension() == QLatin1String("png"));
    for (QWidget* w : std::initializer_list<QWidget*>{m_preset, m_width, m_height, m_theme, m_fontScale,
                                                      m_captionOn, m_caption})
        w->setEnabled(figure);
    if (figure)
        m_caption->setEnabled(m_captionOn->isChecked());
}

void ExportDialog::presetChosen()
{
    const auto presets = figure_size_presets();
    const int i = m_preset->currentIndex();
    if (i <= 0 || i >= presets.size())
        return;
    {
        const QSignalBlocker bw(m_width), bh(m_height);
        m_width->setValue(presets[i].width);
        m_height->setValue(presets[i].height);
    }
    if (presets[i].font_scale > 0.0)
        m_fontScale->setValue(presets[i].font_scale);
    updateSummary();
}

void ExportDialog::sizeEdited()
{
    // The preset combo follows the size: a matching preset, else "Custom".
    const auto presets = figure_size_presets();
    int match = 0;
    for (int i = 1; i < presets.size(); ++i)
        if (presets[i].width == m_width->value() && presets[i].height == m_height->value()) {
            match = i;
            break;
        }
    m_preset->setCurrentIndex(match);
    updateSummary();
}

void ExportDialog::updateSummary()
{
    const FigureExportRequest r = request();
    QString text;
    if (isDataFormat()) {
        text = tr("The numbers the view shows, as %1.").arg(extension().toUpper());
    } else if (extension() == QLatin1String("png")) {
        const double scale = r.options.dpi / kCssDpi;
        text = tr("PNG of %1 × %2 pixels (%3x).")
                   .arg(std::lround(r.options.size.width() * scale))
                   .arg(std::lround(r.options.size.height() * scale))
                   .arg(format_number(scale, 3));
    } else {
        text = tr("Vector %1, %2 × %3 in (%4 × %5 cm).")
                   .arg(extension().toUpper())
                   .arg(r.options.size.width() / kCssDpi, 0, 'f', 2)
                   .arg(r.options.size.height() / kCssDpi, 0, 'f', 2)
                   .arg(r.options.size.width() / kCssDpi * 2.54, 0, 'f', 1)
                   .arg(r.options.size.height() / kCssDpi * 2.54, 0, 'f', 1);
    }
    if (r.views.size() > 1) {
        QStringList names;
        for (const QString& p : figure_export_paths(r.path, r.views))
            names.append(QFileInfo(p).fileName());
        text += QLatin1Char(' ') + tr("One file per view: %1.").arg(names.join(QStringLiteral(", ")));
    }
    m_summary->setText(text);
}

void ExportDialog::accept()
{
    const FigureExportRequest r = request();
    if (r.views.isEmpty() && !isSingleFigure()) {
        QMessageBox::warning(this, windowTitle(), tr("Choose at least one view to export."));
        return;
    }
    if (r.path.isEmpty()) {
        QMessageBox::warning(this, windowTitle(), tr("Choose a file name."));
        return;
    }
    if (r.path != m_confirmedPath || r.views.size() > 1) {
        QStringList existing;
        for (const QString& p : figure_export_paths(r.path, r.views))
            if (QFileInfo::exists(p))
                existing.append(QDir::toNativeSeparators(p));
        if (!existing.isEmpty() &&
            QMessageBox::question(this, windowTitle(),
                                  tr("Replace the existing file(s)?\n%1").arg(existing.join('\n'))) !=
                QMessageBox::Yes)
            return;
    }
    QDialog::accept();
}

} // namespace posatlas::ui

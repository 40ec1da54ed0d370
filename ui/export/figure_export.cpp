// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/figure_export.h"

#include "io/columns.h"
#include "io/number_text.h"
#include "io/safe_write.h"
#include "scenario/validation.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QFont>
#include <QFontInfo>
#include <QImageWriter>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QStringList>
#include <QSvgGenerator>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>

namespace posatlas::ui {
namespace {

constexpr double kCssDpi = 96.0;

QColor background(const RenderOptions& o)
{
    return o.dark ? QColor(0x1e, 0x1f, 0x22) : QColor(Qt::white);
}

// Messages of the free functions below (shown by the export dialog and the command line, in the
// interface's or the environment's language); lupdate reads FigureExport::tr("...") under this context.
struct FigureExport {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::FigureExport)
};

[[noreturn]] void fail(const QString& message)
{
    throw ExportError(message.toStdString());
}

// The figure encoded in memory, so that an encoder never writes to the target file itself: its errors
// (libpng's "Unknown error") cannot hide a full disk, and the bytes go through one checked writer.
class MemoryDevice
{
public:
    MemoryDevice() : m_buffer(&m_bytes) { m_buffer.open(QIODevice::WriteOnly); }
    QBuffer* device() { return &m_buffer; }
    QByteArray take()
    {
        m_buffer.close();
        return m_bytes;
    }

private:
    QByteArray m_bytes;
    QBuffer m_buffer;
};

// QSvgGenerator names the family the painter was given ("Sans Serif", a fontconfig alias), which a
// browser or Inkscape on another machine maps to whatever it likes, often without Chinese glyphs. Each
// font-family becomes a CSS list: the family this machine resolved it to, the CJK families the app's
// Chinese text uses here and on the other common systems, and the generic family.
QByteArray name_svg_fonts(const QByteArray& svg)
{
    QByteArray out;
    out.reserve(svg.size() + svg.size() / 8);
    const QByteArray key = "font-family=\"";
    qsizetype from = 0;
    while (true) {
        const qsizetype at = svg.indexOf(key, from);
        const qsizetype end = at < 0 ? -1 : svg.indexOf('"', at + key.size());
        if (at < 0 || end < 0) {
            out += svg.mid(from);
            return out;
        }
        const QString family = QString::fromUtf8(svg.mid(at + key.size(), end - at - key.size()));
        const QFontInfo resolved{QFont(family)};
        const bool serif = resolved.styleHint() == QFont::Serif ||
                           (resolved.family().contains(QLatin1String("Serif"), Qt::CaseInsensitive) &&
                            !resolved.family().contains(QLatin1String("Sans"), Qt::CaseInsensitive));
        QStringList list{resolved.family()};
        // fontconfig's aliases mean nothing to another program: the generic family at the end stands for
        // them.
        static const QStringList aliases{QStringLiteral("Sans Serif"), QStringLiteral("Sans"),
                                         QStringLiteral("Serif"),      QStringLiteral("Monospace"),
                                         QStringLiteral("sans-serif"), QStringLiteral("serif")};
        if (!aliases.contains(family, Qt::CaseInsensitive))
            list << family;
        list << (serif
                     ? QStringList{QStringLiteral("Noto Serif CJK SC"), QStringLiteral("Source Han Serif SC"),
                                   QStringLiteral("SimSun"), QStringLiteral("Songti SC")}
                     : QStringList{QStringLiteral("Noto Sans CJK SC"), QStringLiteral("Source Han Sans SC"),
                                   QStringLiteral("Microsoft YaHei"), QStringLiteral("PingFang SC")});
        list.removeDuplicates();
        for (QString& f : list)
            f = QLatin1Char('\'') +
                QString(f).remove(QLatin1Char('\'')).remove(QLatin1Char('"')).toHtmlEscaped() +
                QLatin1Char('\'');
        list << (serif ? QStringLiteral("serif") : QStringLiteral("sans-serif"));
        out += svg.mid(from, at - from);
        out += key + list.join(QStringLiteral(", ")).toUtf8() + '"';
        from = end + 1;
    }
}

// A raster costs 4 bytes per pixel, and its encoded PNG is held in memory before it is written (up to
// about as much again): 8 bytes per pixel must fit the memory budget of core/scenario/validation.h.
constexpr double kRasterBytesPerPixel = 8.0;

void check_size(const FigureExportOptions& o, bool raster)
{
    const auto ok = [](double v) { return std::isfinite(v) && v >= 16.0 && v <= 20000.0; };
    if (!ok(o.size.width()) || !ok(o.size.height()))
        fail(FigureExport::tr("the figure size must be between 16 and 20000 pixels per side (got %1 x %2)")
                 .arg(o.size.width())
                 .arg(o.size.height()));
    if (!std::isfinite(o.dpi) || o.dpi < 24.0 || o.dpi > 1200.0)
        fail(FigureExport::tr("the dpi must be between 24 and 1200 (got %1)").arg(o.dpi));
    if (!raster)
        return;
    const double scale = o.dpi / kCssDpi;
    const double pixels = o.size.width() * scale * o.size.height() * scale;
    const double max_pixels = static_cast<double>(kMemoryBudgetBytes) / kRasterBytesPerPixel;
    if (pixels > max_pixels) {
        const double max_dpi =
            std::floor(kCssDpi * std::sqrt(max_pixels / (o.size.width() * o.size.height())));
        const QString advice =
            max_dpi >= 24.0 ? FigureExport::tr("at this size the dpi must be at most %1").arg(max_dpi)
                            : FigureExport::tr("at 96 dpi a figure may have at most %1 pixels, e.g. %2 x %2")
                                  .arg(static_cast<qint64>(max_pixels))
                                  .arg(static_cast<qint64>(std::floor(std::sqrt(max_pixels))));
        fail(FigureExport::tr(
                 "a %1 x %2 figure at %3 dpi is a %4 x %5 pixel image (%6 MiB with its encoded file), "
                 "beyond the %7 MiB memory budget; %8")
                 .arg(o.size.width())
                 .arg(o.size.height())
                 .arg(o.dpi)
                 .arg(std::ceil(o.size.width() * scale))
                 .arg(std::ceil(o.size.height() * scale))
                 .arg(static_cast<qint64>(pixels * kRasterBytesPerPixel / (1024.0 * 1024.0)))
                 .arg(kMemoryBudgetBytes >> 20)
                 .arg(advice));
    }
}

void paint(const Figure& figure, QPainter& painter, const FigureExportOptions& o)
{
    const QRectF target(QPointF(0, 0), o.size);
    painter.fillRect(target, background(o.render));
    figure.renderFigure(painter, target, o.render);
}

QString xml_escape(const QString& s)
{
    return s.toHtmlEscaped();
}

// XMP packet carrying the title and the subject (dc:description): QPdfWriter has setTitle but no
// subject setter in Qt 6.4.
QByteArray xmp_metadata(const FigureExportOptions& o)
{
    const QString xmp =
        QStringLiteral(
            "<?xpacket begin=\"\xEF\xBB\xBF\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>"
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF "
            "xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" "
            "xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\">"
            "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">%1</rdf:li></rdf:Alt></dc:title>"
            "<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">%2</rdf:li></rdf:Alt></dc:description>"
            "<pdf:Producer>PosAtlas</pdf:Producer>"
            "</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end=\"w\"?>")
            .arg(xml_escape(o.title), xml_escape(o.description));
    return xmp.toUtf8();
}

// ------------------------------------------------------------------ numbers

// CSV goes through core's one writer and number policy (number_text.h write_csv_columns), as the
// command line writes it.
QByteArray csv_bytes(const std::vector<CsvColumn>& columns)
{
    const std::string text = csv_text(columns);
    return QByteArray(text.data(), static_cast<qsizetype>(text.size()));
}

// JSON goes through nlohmann and core's number policy (append_json_text), as the command line writes it:
// one JSON library and one number text in the project. Non-finite values are null.
using Json = nlohmann::json;

Json json_num(double v)
{
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}
Json json_text(const QString& s)
{
    return s.toStdString();
}

Json json_array(const std::vector<double>& v)
{
    Json a = Json::array();
    for (double x : v)
        a.push_back(json_num(x));
    return a;
}

template <typename Int> Json json_int_array(const std::vector<Int>& v)
{
    Json a = Json::array();
    for (auto x : v)
        a.push_back(static_cast<std::int64_t>(x));
    return a;
}

QByteArray heatmap_csv(const HeatmapData& d)
{
    if (d.panels.isEmpty())
        return {};
    const MatrixResult& first = d.panels.front().matrix;
    // Machine names (columns.h), as `posatlas compute matrix` names its rows and columns; a panel column
    // first when the view has several.
    CsvColumn panel{"panel"}, row{first.row_name}, col{first.col_name}, value{first.value_name};
    for (const auto& p : d.panels) {
        const MatrixResult& m = p.matrix;
        for (Eigen::Index r = 0; r < m.values.rows(); ++r)
            for (Eigen::Index c = 0; c < m.values.cols(); ++c) {
                panel.texts.push_back(p.label.toStdString());
                row.numbers.push_back(static_cast<double>(m.row_index[static_cast<std::size_t>(r)]));
                col.numbers.push_back(static_cast<double>(m.col_index[static_cast<std::size_t>(c)]));
                value.numbers.push_back(m.values(r, c));
            }
    }
    if (d.panels.size() > 1)
        return csv_bytes({std::move(panel), std::move(row), std::move(col), std::move(value)});
    return csv_bytes({std::move(row), std::move(col), std::move(value)});
}

QByteArray curve_csv(const CurveData& d)
{
    // Long format: one row per point, the series by its id; machine names for the columns (columns.h),
    // as `posatlas compute` names them ("distance_tokens"), whatever the interface's language.
    CsvColumn series{columns::kSeries}, x{d.x_column.toStdString()}, y{d.y_column.toStdString()};
    for (const auto& s : d.series)
        for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            series.texts.push_back(s.id.toStdString());
            x.numbers.push_back(s.x[i]);
            y.numbers.push_back(s.y[i]);
        }
    return csv_bytes({std::move(series), std::move(x), std::move(y)});
}

QByteArray spectrum_csv(const SpectrumData& d)
{
    // The first columns of `posatlas compute rope-pairs`, by the same names and in the same order
    // (rope_pairs_columns.h): each row is the start of that command's row.
    std::vector<CsvColumn> c{{columns::kPair, d.pair},
                             {columns::kInvFreqOriginal, d.theta_original},
                             {columns::kInvFreq, d.theta_scaled},
                             {columns::kWavelengthOriginal, d.wavelength_original},
                             {columns::kWavelength, d.wavelength_scaled},
                             {columns::kRatio, d.ratio}};
    if (!d.ramp.empty())
        c.push_back({columns::kRamp, d.ramp});
    return csv_bytes(c);
}

QByteArray rotation_csv(const RotationData& d)
{
    // Angles in [0, 2 pi) as `posatlas compute rope-angles` gives them (angle_rad at one position).
    std::vector<double> pair(d.theta.size());
    for (std::size_t i = 0; i < pair.size(); ++i)
        pair[i] = static_cast<double>(i);
    return csv_bytes({{columns::kPair, pair},
                      {columns::kInvFreq, d.theta},
                      {columns::kAngleQuery, d.angle_q},
                      {columns::kAngleKey, d.angle_k},
                      {columns::kAngleRelative, d.angle_rel}});
}

Json heatmap_json(const HeatmapData& d)
{
    Json panels = Json::array();
    for (const auto& p : d.panels) {
        const MatrixResult& m = p.matrix;
        Json rows = Json::array();
        for (Eigen::Index r = 0; r < m.values.rows(); ++r) {
            Json row = Json::array();
            for (Eigen::Index c = 0; c < m.values.cols(); ++c)
                row.push_back(json_num(m.values(r, c)));
            rows.push_back(std::move(row));
        }
        panels.push_back(Json{{"label", json_text(p.label)},
                              {"row_label", m.row_label},
                              {"col_label", m.col_label},
                              {"value_label", m.value_label},
                              {"row_name", m.row_name},
                              {"col_name", m.col_name},
                              {"value_name", m.value_name},
                              {"row_index", json_int_array(m.row_index)},
                              {"col_index", json_int_array(m.col_index)},
                              {"matrix", std::move(rows)}});
    }
    Json o{{"view", "heatmap"}, {"title", json_text(d.title)}, {"panels", std::move(panels)}};
    // A sentence's words at the positions (position p is tokens[p]).
    const auto words = [](const QStringList& tokens) {
        Json a = Json::array();
        for (const QString& t : tokens)
            a.push_back(json_text(t));
        return a;
    };
    if (!d.row_tokens.isEmpty())
        o["row_tokens"] = words(d.row_tokens);
    if (!d.col_tokens.isEmpty())
        o["col_tokens"] = words(d.col_tokens);
    return o;
}

Json curve_json(const CurveData& d)
{
    Json series = Json::array();
    for (const auto& s : d.series)
        series.push_back(Json{{"name", json_text(s.name)},
                              {"id", json_text(s.id)},
                              {"x", json_array(s.x)},
                              {"y", json_array(s.y)}});
    Json markers = Json::array();
    for (const auto& m : d.markers)
        markers.push_back(
            Json{{"value", json_num(m.value)}, {"label", json_text(m.label)}, {"vertical", m.vertical}});
    return {{"view", "curves"},
            {"title", json_text(d.title)},
            {"x_label", json_text(d.x_label)},
            {"y_label", json_text(d.y_label)},
            {"x_column", json_text(d.x_column)},
            {"y_column", json_text(d.y_column)},
            {"log_x", d.log_x},
            {"log_y", d.log_y},
            {"series", std::move(series)},
            {"markers", std::move(markers)},
            {"note", json_text(d.note)}};
}

Json spectrum_json(const SpectrumData& d)
{
    Json o{{"view", "spectrum"},
           {"title", json_text(d.title)},
           {columns::kPair, json_array(d.pair)},
           {columns::kInvFreqOriginal, json_array(d.theta_original)},
           {columns::kInvFreq, json_array(d.theta_scaled)},
           {columns::kWavelengthOriginal, json_array(d.wavelength_original)},
           {columns::kWavelength, json_array(d.wavelength_scaled)},
           {columns::kRatio, json_array(d.ratio)},
           {"trained_length", d.trained_length},
           {"target_length", d.target_length},
           {"attention_factor", json_num(d.attention_factor)},
           {"softmax_scale", json_num(d.softmax_scale)},
           {"logit_multiplier", json_num(d.attention_factor * d.attention_factor * d.softmax_scale)},
           {"scaling", json_text(d.scaling_label)}};
    if (!d.ramp.empty())
        o[columns::kRamp] = json_array(d.ramp);
    return o;
}

Json rotation_json(const RotationData& d)
{
    Json shown = Json::array();
    for (int p : d.shown_pairs)
        shown.push_back(p);
    return {{"view", "rotation"},
            {"title", json_text(d.title)},
            {"query_position", d.query_position},
            {"key_position", d.key_position},
            {columns::kInvFreq, json_array(d.theta)},
            {columns::kAngleQuery, json_array(d.angle_q)},
            {columns::kAngleKey, json_array(d.angle_k)},
            {columns::kAngleRelative, json_array(d.angle_rel)},
            {"shown_pairs", shown},
            {"attention_factor", json_num(d.attention_factor)}};
}

template <class... Ts> struct overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts> overloaded(Ts...) -> overloaded<Ts...>;

} // namespace

std::optional<ExportFormat> export_format_from_path(const QString& path)
{
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("png"))
        return ExportFormat::Png;
    if (ext == QLatin1String("svg"))
        return ExportFormat::Svg;
    if (ext == QLatin1String("pdf"))
        return ExportFormat::Pdf;
    if (ext == QLatin1String("csv"))
        return ExportFormat::Csv;
    if (ext == QLatin1String("json"))
        return ExportFormat::Json;
    return std::nullopt;
}

QString export_format_list()
{
    return QStringLiteral("png, svg, pdf, csv, json");
}

QImage render_figure_image(const Figure& figure, const FigureExportOptions& options)
{
    check_size(options, true);
    const double scale = options.dpi / kCssDpi;
    if (scale < 1.0) {
        // Below 96 dpi the figure is laid out and painted at 96 dpi, then scaled down: a device pixel
        // ratio under 1 makes Qt paint the layout at full size into the smaller image (a crop of the
        // top-left corner instead of the whole figure).
        FigureExportOptions screen = options;
        screen.dpi = kCssDpi;
        QImage full = render_figure_image(figure, screen);
        full.setDevicePixelRatio(1.0);
        QImage image = full.scaled(QSize(static_cast<int>(std::lround(options.size.width() * scale)),
                                         static_cast<int>(std::lround(options.size.height() * scale))),
                                   Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        const int dots = static_cast<int>(std::lround(options.dpi / 0.0254));
        image.setDotsPerMeterX(dots);
        image.setDotsPerMeterY(dots);
        return image;
    }
    QImage image(QSize(static_cast<int>(std::lround(options.size.width() * scale)),
                       static_cast<int>(std::lround(options.size.height() * scale))),
                 QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        fail(FigureExport::tr("not enough memory for a %1 x %2 pixel image")
                 .arg(image.width())
                 .arg(image.height()));
    // Filled first: when size * dpi / 96 is fractional the last row / column is only partly covered
    // by the painted background, and would otherwise blend with uninitialised memory.
    image.fill(background(options.render));
    // One layout for every format: the figure is laid out in CSS pixels (96 per inch), as for SVG and
    // PDF, and the device pixel ratio alone turns it into dpi / 96 image pixels per layout pixel. The
    // image's dots per metre set the logical dpi that point-sized fonts use, so while painting they
    // must say 96: the requested dpi there scaled the text a second time (1.9x larger than in the PDF,
    // titles cut, ticks dropped). The file then records the requested dpi.
    image.setDevicePixelRatio(scale);
    const auto dots_per_metre = [](double dpi) { return static_cast<int>(std::lround(dpi / 0.0254)); };
    image.setDotsPerMeterX(dots_per_metre(kCssDpi));
    image.setDotsPerMeterY(dots_per_metre(kCssDpi));
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    paint(figure, painter, options);
    painter.end();
    image.setDotsPerMeterX(dots_per_metre(options.dpi));
    image.setDotsPerMeterY(dots_per_metre(options.dpi));
    return image;
}

void export_figure(const Figure& figure, const QString& path, const FigureExportOptions& options)
{
    const auto format = export_format_from_path(path);
    if (!format || *format == ExportFormat::Csv || *format == ExportFormat::Json)
        fail(FigureExport::tr("%1: a figure can be written as png, svg or pdf (by the file extension)")
                 .arg(path));
    check_size(options, false); // a PNG's raster is checked by render_figure_image()
    MemoryDevice file;
    switch (*format) {
    case ExportFormat::Png: {
        const QImage image = render_figure_image(figure, options);
        QImageWriter writer(file.device(), "png");
        if (!options.title.isEmpty())
            writer.setText(QStringLiteral("Title"), options.title);
        if (!options.description.isEmpty())
            writer.setText(QStringLiteral("Description"), options.description);
        writer.setText(QStringLiteral("Software"), QStringLiteral("PosAtlas"));
        if (!writer.write(image))
            fail(FigureExport::tr("cannot write %1: the PNG encoder failed (%2)")
                     .arg(path, writer.errorString()));
        break;
    }
    case ExportFormat::Svg: {
        QSvgGenerator svg;
        svg.setOutputDevice(file.device());
        svg.setSize(options.size.toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), options.size));
        svg.setResolution(static_cast<int>(kCssDpi));
        svg.setTitle(options.title);
        svg.setDescription(options.description);
        QPainter painter;
        if (!painter.begin(&svg))
            fail(FigureExport::tr("cannot write %1: the SVG generator did not start").arg(path));
        paint(figure, painter, options);
        painter.end();
        write_file_atomically(path, name_svg_fonts(file.take()));
        return;
    }
    case ExportFormat::Pdf: {
        QPdfWriter pdf(file.device());
        pdf.setResolution(static_cast<int>(kCssDpi));
        // Page = the figure, in points (1/72 in): size * 72 / 96, no margins.
        pdf.setPageLayout(QPageLayout(QPageSize(options.size * (72.0 / kCssDpi), QPageSize::Point),
                                      QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
        pdf.setTitle(options.title);
        pdf.setCreator(QStringLiteral("PosAtlas"));
        pdf.setDocumentXmpMetadata(xmp_metadata(options));
        QPainter painter;
        if (!painter.begin(&pdf))
            fail(FigureExport::tr("cannot write %1: the PDF writer did not start").arg(path));
        // QPdfEngine embeds every 32-bit image as JPEG unless this hint is set (then Flate, lossless):
        // a heatmap must keep exactly its colour map's 256 colours, not JPEG's blend of them.
        painter.setRenderHint(QPainter::LosslessImageRendering);
        paint(figure, painter, options);
        painter.end();
        break;
    }
    case ExportFormat::Csv:
    case ExportFormat::Json: break;
    }
    write_file_atomically(path, file.take());
}

QByteArray numbers_csv(const ViewNumbers& data)
{
    return std::visit(overloaded{[](const HeatmapData& d) { return heatmap_csv(d); },
                                 [](const CurveData& d) { return curve_csv(d); },
                                 [](const RotationData& d) { return rotation_csv(d); },
                                 [](const SpectrumData& d) { return spectrum_csv(d); }},
                      data);
}

QByteArray numbers_json(const ViewNumbers& data)
{
    const Json o = std::visit(overloaded{[](const HeatmapData& d) { return heatmap_json(d); },
                                         [](const CurveData& d) { return curve_json(d); },
                                         [](const RotationData& d) { return rotation_json(d); },
                                         [](const SpectrumData& d) { return spectrum_json(d); }},
                              data);
    std::string out;
    append_json_text(out, o);
    out += '\n';
    return QByteArray::fromStdString(out);
}

void export_numbers(const ViewNumbers& data, const QString& path)
{
    const auto format = export_format_from_path(path);
    if (format == ExportFormat::Csv)
        return write_file_atomically(path, numbers_csv(data));
    if (format == ExportFormat::Json)
        return write_file_atomically(path, numbers_json(data));
    fail(FigureExport::tr("%1: numbers can be written as csv or json (by the file extension)").arg(path));
}

void write_all_checked(QIODevice& device, const QByteArray& bytes)
{
    if (device.write(bytes) != bytes.size())
        fail(device.errorString());
    // QFileDevice buffers writes: ENOSPC may only surface when the buffer goes out. Qt 6.4's
    // QSaveFile::commit() flushes on close but ignores that error, so flush here and look.
    if (auto* file = qobject_cast<QFileDevice*>(&device)) {
        if (!file->flush() || file->error() != QFileDevice::NoError)
            fail(file->errorString());
    }
}

void write_file_atomically(const QString& path, const QByteArray& bytes)
{
    // The one writer of the core (io/safe_write.h): a temporary file of a unique name renamed over a
    // regular file, the mode and a symlink the user chose kept, a device or FIFO written straight.
    try {
        posatlas::write_file_atomically(
            QFile::encodeName(path).toStdString(),
            std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    } catch (const OutputFileError& e) {
        fail(FigureExport::tr("cannot write %1: %2").arg(path, QString::fromLocal8Bit(e.reason().c_str())));
    }
}

} // namespace posatlas::ui

// SPDX-License-Identifier: GPL-3.0-or-later
// Exports a Figure to PNG (raster at a chosen DPI), SVG and PDF (true vectors from the same
// renderFigure() the screen uses), and the numbers behind a view to CSV / JSON. Every file is encoded in
// memory and written by the core's one writer (io/safe_write.h): a failure never leaves a partial file
// under the target name, and a device or FIFO the user named is written straight, never replaced.
#pragma once

#include "jobs/view_data.h"
#include "views/figure.h"

#include <QByteArray>
#include <QIODevice>
#include <QImage>
#include <QSizeF>
#include <QString>

#include <optional>
#include <stdexcept>
#include <variant>

namespace posatlas::ui {

enum class ExportFormat { Png, Svg, Pdf, Csv, Json };
// From the file name's extension (case-insensitive); nullopt for anything else.
std::optional<ExportFormat> export_format_from_path(const QString& path);
QString export_format_list(); // "png, svg, pdf, csv, json"

class ExportError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

struct FigureExportOptions {
    QSizeF size{1200.0, 800.0}; // figure size in CSS pixels (1/96 inch): the painter's coordinate space
    double dpi = 192.0;         // PNG only: pixels = size * dpi / 96 (default 2x)
    RenderOptions render;       // theme, font scale, caption
    QString title;              // SVG <title>, PDF title, PNG "Title" text chunk
    QString description;        // SVG <desc>, PDF subject (XMP dc:description), PNG "Description"
};

// The figure rasterised at size * dpi / 96 pixels (device pixel ratio dpi / 96), on the theme's
// background. Used for PNG, the clipboard and tests.
QImage render_figure_image(const Figure& figure, const FigureExportOptions& options);

// Writes `figure` to `path` in the format its extension names (png, svg, pdf). Throws ExportError
// with the reason (unknown extension, unwritable path with the OS error, encoder failure).
void export_figure(const Figure& figure, const QString& path, const FigureExportOptions& options);

// The numbers behind a view. CSV: a header row naming each column and its unit, then tidy rows.
using ViewNumbers = std::variant<HeatmapData, CurveData, RotationData, SpectrumData>;
QByteArray numbers_csv(const ViewNumbers& data);
QByteArray numbers_json(const ViewNumbers& data);
// Writes numbers_csv / numbers_json according to the extension (csv, json). Throws ExportError.
void export_numbers(const ViewNumbers& data, const QString& path);

// Writes bytes to path through posatlas::write_file_atomically (io/safe_write.h): a regular file is
// replaced through a unique temporary file keeping its mode, a symlink stays and its file gets the bytes,
// a device or FIFO is written straight. Throws ExportError "cannot write PATH: REASON" with the system's
// reason ("No space left on device"); on failure the file that was under `path` is left as it was.
void write_file_atomically(const QString& path, const QByteArray& bytes);
// Writes all of `bytes` to an open `device`, flushes a file device and checks its error state. Throws
// ExportError with the device's reason ("No space left on device").
void write_all_checked(QIODevice& device, const QByteArray& bytes);

} // namespace posatlas::ui

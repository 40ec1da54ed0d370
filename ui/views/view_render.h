// SPDX-License-Identifier: GPL-3.0-or-later
// One figure for one view kind, off screen: builds the view widget, hands it the computed data and
// exposes its Figure. Shared by `posatlas export`, `posatlas gallery` and the GUI's export of a
// chosen set of views, so that every path paints through the same renderFigure().
#pragma once

#include "jobs/view_jobs.h"
#include "views/colormap.h"
#include "views/figure.h"

#include <QWidget>

#include <memory>
#include <optional>

namespace posatlas::ui {

class OffscreenFigure
{
public:
    // Computes the view's data for `s` (core, on the calling thread) and loads it into a fresh view.
    // Throws what core throws (ParameterError).
    OffscreenFigure(ViewKind kind, const Scenario& s, const ViewSettings& settings,
                    std::optional<Colormap> colormap = std::nullopt);
    ~OffscreenFigure();

    const Figure& figure() const { return *m_figure; }
    const ViewResult& data() const { return m_data; }
    QWidget* widget() const { return m_widget.get(); }

private:
    std::unique_ptr<QWidget> m_widget;
    Figure* m_figure = nullptr;
    ViewResult m_data;
};

// Loads `data` into a view widget of the matching type (HeatmapView for HeatmapData, ...).
// Returns nullptr when the widget's type does not match the data.
Figure* set_view_data(QWidget* view, const ViewResult& data);
// A new, empty view widget of the kind.
std::unique_ptr<QWidget> make_view(ViewKind kind);

} // namespace posatlas::ui

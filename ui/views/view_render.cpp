// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/view_render.h"

#include "views/curve_view.h"
#include "views/heatmap_view.h"
#include "views/rotation_view.h"
#include "views/spectrum_view.h"

namespace posatlas::ui {

std::unique_ptr<QWidget> make_view(ViewKind kind)
{
    switch (kind) {
    case ViewKind::Heatmap: return std::make_unique<HeatmapView>();
    case ViewKind::Curves: return std::make_unique<CurveView>();
    case ViewKind::Rotation: return std::make_unique<RotationView>();
    case ViewKind::Spectrum: return std::make_unique<SpectrumView>();
    }
    return nullptr;
}

Figure* set_view_data(QWidget* view, const ViewResult& data)
{
    if (const auto* d = std::get_if<HeatmapData>(&data)) {
        if (auto* v = qobject_cast<HeatmapView*>(view)) {
            v->setData(*d);
            return v;
        }
    } else if (const auto* d = std::get_if<CurveData>(&data)) {
        if (auto* v = qobject_cast<CurveView*>(view)) {
            v->setData(*d);
            return v;
        }
    } else if (const auto* d = std::get_if<RotationData>(&data)) {
        if (auto* v = qobject_cast<RotationView*>(view)) {
            v->setData(*d);
            return v;
        }
    } else if (const auto* d = std::get_if<SpectrumData>(&data)) {
        if (auto* v = qobject_cast<SpectrumView*>(view)) {
            v->setData(*d);
            return v;
        }
    }
    return nullptr;
}

OffscreenFigure::OffscreenFigure(ViewKind kind, const Scenario& s, const ViewSettings& settings,
                                 std::optional<Colormap> colormap)
    : m_widget(make_view(kind)), m_data(run_view_job(kind, s, settings, {}, {}))
{
    if (colormap)
        if (auto* h = qobject_cast<HeatmapView*>(m_widget.get()))
            h->setColormap(*colormap);
    m_figure = set_view_data(m_widget.get(), m_data);
    m_widget->resize(settings.pixel_width, settings.pixel_height);
}

OffscreenFigure::~OffscreenFigure() = default;

} // namespace posatlas::ui

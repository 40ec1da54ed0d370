// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/presentation_style.h"

#include <QApplication>
#include <QDockWidget>
#include <QPainter>
#include <QPolygonF>
#include <QStyleFactory>
#include <QStyleOption>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace posatlas::ui {

namespace {

// About as wide as the common styles make a spin box's buttons at 96 dpi.
constexpr double kSpinButtonWidth = 16.0;

// Sizes of indicators, icons and handles: the metrics a larger font does not change.
bool isScaledMetric(QStyle::PixelMetric metric)
{
    switch (metric) {
    case QStyle::PM_IndicatorWidth:
    case QStyle::PM_IndicatorHeight:
    case QStyle::PM_ExclusiveIndicatorWidth:
    case QStyle::PM_ExclusiveIndicatorHeight:
    case QStyle::PM_SmallIconSize:
    case QStyle::PM_ButtonIconSize:
    case QStyle::PM_ToolBarIconSize:
    case QStyle::PM_ListViewIconSize:
    case QStyle::PM_TabBarIconSize:
    case QStyle::PM_MessageBoxIconSize:
    case QStyle::PM_SliderThickness:
    case QStyle::PM_SliderLength:
    case QStyle::PM_SliderControlThickness:
    case QStyle::PM_ScrollBarExtent:
    case QStyle::PM_ScrollBarSliderMin:
    case QStyle::PM_MenuButtonIndicator: return true;
    default: return false;
    }
}

} // namespace

ScaledStyle::ScaledStyle(const QString& baseStyle, double scale, QWidget* scope)
    : QProxyStyle(QStyleFactory::create(baseStyle)), m_scale(std::clamp(scale, 1.0, 4.0)),
      m_baseName(baseStyle), m_scoped(scope != nullptr), m_scope(scope)
{
}

bool ScaledStyle::scales(const QStyleOption* option, const QWidget* widget) const
{
    if (m_scale == 1.0)
        return false;
    if (!m_scoped)
        return true;
    const QWidget* w = widget ? widget : option ? qobject_cast<const QWidget*>(option->styleObject) : nullptr;
    // Up to the window the widget is in; a dock widget belongs to its main window even when floating.
    for (; w && m_scope; w = w->parentWidget()) {
        if (w == m_scope)
            return true;
        if (w->isWindow() && !qobject_cast<const QDockWidget*>(w))
            return false;
    }
    return false;
}

int ScaledStyle::pixelMetric(PixelMetric metric, const QStyleOption* option, const QWidget* widget) const
{
    const int value = QProxyStyle::pixelMetric(metric, option, widget);
    return isScaledMetric(metric) && scales(option, widget) ? static_cast<int>(std::lround(value * m_scale))
                                                            : value;
}

QRect ScaledStyle::subControlRect(ComplexControl control, const QStyleOptionComplex* option, SubControl sub,
                                  const QWidget* widget) const
{
    const auto* spin = qstyleoption_cast<const QStyleOptionSpinBox*>(option);
    if (control != CC_SpinBox || !spin || spin->buttonSymbols == QAbstractSpinBox::NoButtons ||
        !scales(option, widget))
        return QProxyStyle::subControlRect(control, option, sub, widget);
    // The buttons `scale` times as wide as the base style makes them, the edit field narrower by as much.
    QRect r = QProxyStyle::subControlRect(control, option, sub, widget);
    const QRect up = QProxyStyle::subControlRect(control, option, SC_SpinBoxUp, widget);
    const int extra = std::min(static_cast<int>(std::lround(up.width() * (m_scale - 1.0))),
                               std::max(0, option->rect.width() / 3 - up.width()));
    const bool leftToRight = option->direction != Qt::RightToLeft;
    if (sub == SC_SpinBoxUp || sub == SC_SpinBoxDown) {
        if (leftToRight)
            r.setLeft(r.left() - extra);
        else
            r.setRight(r.right() + extra);
    } else if (sub == SC_SpinBoxEditField) {
        if (leftToRight)
            r.setRight(r.right() - extra);
        else
            r.setLeft(r.left() + extra);
    }
    return r;
}

QSize ScaledStyle::sizeFromContents(ContentsType type, const QStyleOption* option, const QSize& size,
                                    const QWidget* widget) const
{
    QSize out = QProxyStyle::sizeFromContents(type, option, size, widget);
    // Room for the wider buttons (subControlRect): the edit field keeps the width its text needs.
    if (const auto* spin = qstyleoption_cast<const QStyleOptionSpinBox*>(option);
        type == CT_SpinBox && spin && spin->buttonSymbols != QAbstractSpinBox::NoButtons &&
        scales(option, widget))
        out.rwidth() += static_cast<int>(std::lround(kSpinButtonWidth * (m_scale - 1.0)));
    return out;
}

void ScaledStyle::drawComplexControl(ComplexControl control, const QStyleOptionComplex* option,
                                     QPainter* painter, const QWidget* widget) const
{
    QProxyStyle::drawComplexControl(control, option, painter, widget);
    if (!option || !scales(option, widget))
        return;
    // The base style draws its arrows at their normal size (and a spin box's buttons at their normal
    // width): larger ones over them, centred where the small ones are, so that they cover them.
    if (const auto* spin = qstyleoption_cast<const QStyleOptionSpinBox*>(option);
        control == CC_SpinBox && spin && spin->buttonSymbols == QAbstractSpinBox::UpDownArrows) {
        const QRect up = subControlRect(control, option, SC_SpinBoxUp, widget);
        const QRect down = subControlRect(control, option, SC_SpinBoxDown, widget);
        const QRect buttons = up.united(down).adjusted(1, 1, -1, -1);
        painter->save();
        painter->fillRect(buttons, option->palette.button());
        painter->setPen(option->palette.color(QPalette::Mid));
        const int edge = option->direction == Qt::RightToLeft ? buttons.right() : buttons.left();
        painter->drawLine(edge, buttons.top(), edge, buttons.bottom());
        painter->restore();
        const bool enabled = option->state & State_Enabled;
        paintArrow(
            painter, up, Qt::UpArrow,
            arrowColor(option->palette, enabled && (spin->stepEnabled & QAbstractSpinBox::StepUpEnabled)));
        paintArrow(
            painter, down, Qt::DownArrow,
            arrowColor(option->palette, enabled && (spin->stepEnabled & QAbstractSpinBox::StepDownEnabled)));
    } else if (control == CC_ComboBox && qstyleoption_cast<const QStyleOptionComboBox*>(option)) {
        paintArrow(painter, subControlRect(control, option, SC_ComboBoxArrow, widget), Qt::DownArrow,
                   arrowColor(option->palette, option->state & State_Enabled));
    }
}

void ScaledStyle::drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                                const QWidget* widget) const
{
    Qt::ArrowType arrow = Qt::NoArrow;
    switch (element) {
    case PE_IndicatorArrowUp: arrow = Qt::UpArrow; break;
    case PE_IndicatorArrowDown: arrow = Qt::DownArrow; break;
    case PE_IndicatorArrowLeft: arrow = Qt::LeftArrow; break;
    case PE_IndicatorArrowRight: arrow = Qt::RightArrow; break;
    default: break;
    }
    if (arrow == Qt::NoArrow || !option || !scales(option, widget)) {
        QProxyStyle::drawPrimitive(element, option, painter, widget);
        return;
    }
    paintArrow(painter, option->rect, arrow, arrowColor(option->palette, option->state & State_Enabled));
}

QColor ScaledStyle::arrowColor(const QPalette& palette, bool enabled)
{
    // Opaque: it covers the base style's translucent arrow exactly.
    const QColor text = palette.color(enabled ? QPalette::Active : QPalette::Disabled, QPalette::WindowText);
    const QColor under = palette.color(QPalette::Button);
    const double a = enabled ? 0.8 : 0.45;
    return QColor::fromRgbF(static_cast<float>(a * text.redF() + (1 - a) * under.redF()),
                            static_cast<float>(a * text.greenF() + (1 - a) * under.greenF()),
                            static_cast<float>(a * text.blueF() + (1 - a) * under.blueF()));
}

void ScaledStyle::paintArrow(QPainter* painter, const QRect& rect, Qt::ArrowType type,
                             const QColor& color) const
{
    if (rect.width() < 3 || rect.height() < 3)
        return;
    // 9 x 4.5 px at 100 %, as large as the rectangle allows.
    const bool horizontal = type == Qt::UpArrow || type == Qt::DownArrow;
    const double along = horizontal ? rect.width() : rect.height(),
                 across = horizontal ? rect.height() : rect.width();
    const double base = std::min({9.0 * m_scale, along - 2.0, 2.0 * (across - 2.0)});
    if (base < 2.0)
        return;
    const double height = base / 2.0;
    const QPointF c = QRectF(rect).center();
    QPolygonF triangle;
    switch (type) {
    case Qt::UpArrow:
        triangle << QPointF(c.x() - base / 2, c.y() + height / 2)
                 << QPointF(c.x() + base / 2, c.y() + height / 2) << QPointF(c.x(), c.y() - height / 2);
        break;
    case Qt::DownArrow:
        triangle << QPointF(c.x() - base / 2, c.y() - height / 2)
                 << QPointF(c.x() + base / 2, c.y() - height / 2) << QPointF(c.x(), c.y() + height / 2);
        break;
    case Qt::LeftArrow:
        triangle << QPointF(c.x() + height / 2, c.y() - base / 2)
                 << QPointF(c.x() + height / 2, c.y() + base / 2) << QPointF(c.x() - height / 2, c.y());
        break;
    default:
        triangle << QPointF(c.x() - height / 2, c.y() - base / 2)
                 << QPointF(c.x() - height / 2, c.y() + base / 2) << QPointF(c.x() + height / 2, c.y());
        break;
    }
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    painter->drawPolygon(triangle);
    painter->restore();
}

} // namespace posatlas::ui

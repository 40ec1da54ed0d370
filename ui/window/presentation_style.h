// SPDX-License-Identifier: GPL-3.0-or-later
// The widget style of presentation mode (presentation.h): a proxy over a named style (the one the
// application had, or Fusion for the high-contrast theme) that scales what a larger font alone leaves
// at its normal size: check boxes and radio buttons, icons, slider handles and grooves, scroll bars,
// spin-box buttons and their arrows, and the arrows of tool buttons. Text sizes come from the fonts;
// everything else is the base style's.
//
// The style is the application's (Qt has no other way to reach every widget a window will ever create),
// but it scales only the widgets of one window, its `scope`: the presented main window, whose fonts are
// scaled too. Other windows (the explorer, dialogs, menus) keep their normal fonts while presenting and
// therefore their normal sizes: check boxes and scroll bars 2.5 times too large beside normal text in a
// dialog help nobody, and the presenter works in dialogs at the desk rather than shows them.
#pragma once

#include <QColor>
#include <QPalette>
#include <QPointer>
#include <QProxyStyle>
#include <QString>
#include <QWidget>

namespace posatlas::ui {

class ScaledStyle : public QProxyStyle
{
    Q_OBJECT
public:
    // `scale` is clamped to 1 … 4; 1 draws exactly as the base style. With a `scope`, only that window's
    // widgets (its docks too, floating or not) are scaled; without one, every widget.
    ScaledStyle(const QString& baseStyle, double scale, QWidget* scope = nullptr);

    double scale() const { return m_scale; }
    // The name the base style was created from (QStyleFactory), to compare and to restore.
    QString baseStyleName() const { return m_baseName; }

    int pixelMetric(PixelMetric metric, const QStyleOption* option = nullptr,
                    const QWidget* widget = nullptr) const override;
    QRect subControlRect(ComplexControl control, const QStyleOptionComplex* option, SubControl sub,
                         const QWidget* widget = nullptr) const override;
    void drawComplexControl(ComplexControl control, const QStyleOptionComplex* option, QPainter* painter,
                            const QWidget* widget = nullptr) const override;
    QSize sizeFromContents(ContentsType type, const QStyleOption* option, const QSize& size,
                           const QWidget* widget = nullptr) const override;
    void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                       const QWidget* widget = nullptr) const override;

    // True when `widget` (or, without one, the option's style object) is drawn at the scale.
    bool scales(const QStyleOption* option, const QWidget* widget) const;

private:
    static QColor arrowColor(const QPalette& palette, bool enabled);
    void paintArrow(QPainter* painter, const QRect& rect, Qt::ArrowType type, const QColor& color) const;

    double m_scale;
    QString m_baseName;
    bool m_scoped;
    QPointer<QWidget> m_scope;
};

} // namespace posatlas::ui

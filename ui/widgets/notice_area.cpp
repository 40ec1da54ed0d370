// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/notice_area.h"

#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>

namespace posatlas::ui {

NoticeArea::NoticeArea(QWidget* parent) : QWidget(parent), m_layout(new QVBoxLayout(this))
{
    setObjectName(QStringLiteral("NoticeArea"));
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(1);
}

void NoticeArea::showNotice(const QString& id, const QString& text, std::vector<Action> actions,
                            bool closable)
{
    clear(id);
    auto* bar = new QFrame(this);
    bar->setObjectName(QStringLiteral("Notice"));
    // A pale amber bar with dark text in both themes: a warning, readable whatever the palette.
    bar->setStyleSheet(QStringLiteral("QFrame#Notice { background: #fff3cd; border: 1px solid #e6c86e; "
                                      "border-radius: 3px; } QFrame#Notice QLabel { color: #3d3000; }"));
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(8, 4, 8, 4);
    auto* icon = new QLabel(bar);
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, this).pixmap(size, size));
    row->addWidget(icon, 0, Qt::AlignVCenter);
    auto* label = new QLabel(text, bar);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse); // a path to copy
    // A tool bar does not ask its widgets for their height at their width: the label is held at the
    // height its text needs at the width it gets (eventFilter), not a tall guess.
    label->installEventFilter(this);
    row->addWidget(label, 1);
    for (Action& a : actions) {
        auto* button = new QPushButton(a.text, bar);
        connect(button, &QPushButton::clicked, this, [run = std::move(a.run)] { run(); });
        row->addWidget(button, 0, Qt::AlignVCenter);
    }
    if (closable) {
        auto* close = new QPushButton(tr("Close"), bar);
        connect(close, &QPushButton::clicked, this, [this, id] { clear(id); });
        row->addWidget(close, 0, Qt::AlignVCenter);
    }
    m_layout->addWidget(bar);
    m_bars.push_back({id, bar, label});
    emit changed();
}

bool NoticeArea::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Resize)
        if (auto* label = qobject_cast<QLabel*>(watched)) {
            const int height = label->heightForWidth(label->width());
            if (height > 0 && height != label->height())
                label->setFixedHeight(height);
        }
    return QWidget::eventFilter(watched, event);
}

void NoticeArea::clear(const QString& id)
{
    const auto it = std::find_if(m_bars.begin(), m_bars.end(), [&](const Bar& b) { return b.id == id; });
    if (it == m_bars.end())
        return;
    QWidget* widget = it->widget;
    m_bars.erase(it);
    widget->hide();
    widget->deleteLater(); // the click that closes it may come from one of its buttons
    emit changed();
}

QString NoticeArea::text(const QString& id) const
{
    for (const Bar& b : m_bars)
        if (b.id == id)
            return b.label->text();
    return {};
}

QStringList NoticeArea::ids() const
{
    QStringList out;
    for (const Bar& b : m_bars)
        out << b.id;
    return out;
}

QWidget* NoticeArea::bar(const QString& id) const
{
    for (const Bar& b : m_bars)
        if (b.id == id)
            return b.widget;
    return nullptr;
}

QPushButton* NoticeArea::button(const QString& id, const QString& text) const
{
    if (QWidget* b = bar(id))
        for (QPushButton* p : b->findChildren<QPushButton*>())
            if (p->text().remove(QLatin1Char('&')) == text)
                return p;
    return nullptr;
}

} // namespace posatlas::ui

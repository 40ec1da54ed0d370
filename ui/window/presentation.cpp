// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/presentation.h"

#include "io/presets.h"
#include "model/scenario_model.h"
#include "model/settings.h"
#include "views/figure_style.h"
#include "widgets/parameter_panel.h"
#include "window/presentation_style.h"

#include <QAbstractButton>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QStyle>
#include <QStyleFactory>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <functional>

namespace posatlas::ui {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// The high-contrast light theme's widget colours: white, black text, black frames, no grey text
// (disabled text stays distinguishable but dark: #505050 is 8:1 on white, WCAG 2.1 1.4.3).
QPalette highContrastPalette()
{
    QPalette p;
    const QColor white(Qt::white), black(Qt::black), button(0xf2, 0xf2, 0xf2);
    for (auto group : {QPalette::Active, QPalette::Inactive}) {
        p.setColor(group, QPalette::Window, white);
        p.setColor(group, QPalette::WindowText, black);
        p.setColor(group, QPalette::Base, white);
        p.setColor(group, QPalette::AlternateBase, button);
        p.setColor(group, QPalette::ToolTipBase, white);
        p.setColor(group, QPalette::ToolTipText, black);
        p.setColor(group, QPalette::Text, black);
        p.setColor(group, QPalette::Button, button);
        p.setColor(group, QPalette::ButtonText, black);
        p.setColor(group, QPalette::BrightText, QColor(0xb0, 0x00, 0x00));
        p.setColor(group, QPalette::Highlight, QColor(0x00, 0x3c, 0xb4));
        p.setColor(group, QPalette::HighlightedText, white);
        p.setColor(group, QPalette::Link, QColor(0x00, 0x3c, 0xb4));
        p.setColor(group, QPalette::PlaceholderText, QColor(0x40, 0x40, 0x40));
        // Fusion draws frames and slider grooves from these: black rather than pale grey.
        p.setColor(group, QPalette::Light, white);
        p.setColor(group, QPalette::Midlight, QColor(0xd0, 0xd0, 0xd0));
        p.setColor(group, QPalette::Mid, QColor(0x60, 0x60, 0x60));
        p.setColor(group, QPalette::Dark, black);
        p.setColor(group, QPalette::Shadow, black);
    }
    p.setColor(QPalette::Disabled, QPalette::Window, white);
    p.setColor(QPalette::Disabled, QPalette::Base, white);
    p.setColor(QPalette::Disabled, QPalette::Button, button);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x50, 0x50, 0x50));
    return p;
}

// Controls that use the arrows (and Space) themselves: they keep them while presenting.
bool isInputControl(const QWidget* w)
{
    return w && (qobject_cast<const QAbstractSlider*>(w) || qobject_cast<const QAbstractSpinBox*>(w) ||
                 qobject_cast<const QLineEdit*>(w) || qobject_cast<const QComboBox*>(w) ||
                 qobject_cast<const QAbstractButton*>(w));
}

} // namespace

// ---------------------------------------------------------------- PresetSteps

PresetSteps::PresetSteps(ScenarioModel* model) : m_model(model)
{
    for (const PresetInfo& p : list_presets()) {
        m_ids.push_back(qs(p.id));
        m_names.push_back(qs(p.name));
    }
    m_base = model->scenario();
}

void PresetSteps::begin()
{
    m_base = m_model->scenario();
}

int PresetSteps::count() const
{
    return static_cast<int>(m_ids.size());
}

QString PresetSteps::title(int index) const
{
    return index >= 0 && index < count() ? m_names[static_cast<std::size_t>(index)] : QString();
}

QString PresetSteps::presetId(int index) const
{
    return index >= 0 && index < count() ? m_ids[static_cast<std::size_t>(index)] : QString();
}

bool PresetSteps::show(int index)
{
    if (index < 0 || index >= count())
        return false;
    ConfigImport result;
    try {
        result = load_preset(presetId(index).toStdString(), m_base);
    } catch (const std::exception&) {
        return false; // embedded presets always load; a failure leaves the scenario as it was
    }
    return m_model->setScenario(
        result.scenario,
        QCoreApplication::translate("posatlas::ui::MainWindow", "Preset %1").arg(title(index)));
}

std::optional<int> PresetSteps::current() const
{
    const Scenario& now = m_model->scenario();
    for (int i = 0; i < count(); ++i) {
        try {
            if (load_preset(presetId(i).toStdString(), m_base).scenario == now)
                return i;
        } catch (const std::exception&) {
        }
    }
    return std::nullopt;
}

// ---------------------------------------------------------------- Presentation

Presentation::Presentation(const Parts& parts, Settings* settings)
    : QObject(parts.window), m_window(parts.window), m_model(parts.model), m_panel(parts.panel),
      m_panelDock(parts.panelDock), m_importDock(parts.importDock), m_docks(parts.docks),
      m_maxPanelWidth(parts.maxPanelWidth), m_settings(settings),
      m_fontScale(settings->presentationFontScale()), m_highContrast(settings->presentationHighContrast()),
      m_showPanel(settings->presentationShowsPanel())
{
    m_presentAction = new QAction(tr("Prese&nt"), this);
    m_presentAction->setObjectName(QStringLiteral("presentAction"));
    m_presentAction->setCheckable(true);
    m_presentAction->setShortcut(QKeySequence(Qt::Key_F5));
    m_presentAction->setStatusTip(tr("Full screen for a projector: one figure, larger text, PgDn / PgUp step "
                                     "through the presets; Esc or F5 leaves"));
    connect(m_presentAction, &QAction::triggered, this, [this] { toggle(); });

    m_largerAction = new QAction(tr("&Larger Text"), this);
    m_largerAction->setObjectName(QStringLiteral("presentLargerAction"));
    m_largerAction->setShortcuts({QKeySequence(tr("Ctrl+=")), QKeySequence(tr("Ctrl++"))});
    connect(m_largerAction, &QAction::triggered, this, [this] { setFontScale(m_fontScale + 0.25); });
    m_smallerAction = new QAction(tr("&Smaller Text"), this);
    m_smallerAction->setObjectName(QStringLiteral("presentSmallerAction"));
    m_smallerAction->setShortcut(QKeySequence(tr("Ctrl+-")));
    connect(m_smallerAction, &QAction::triggered, this, [this] { setFontScale(m_fontScale - 0.25); });
    m_resetScaleAction = new QAction(tr("&Normal Text (100 %)"), this);
    m_resetScaleAction->setObjectName(QStringLiteral("presentResetScaleAction"));
    m_resetScaleAction->setShortcut(QKeySequence(tr("Ctrl+0")));
    connect(m_resetScaleAction, &QAction::triggered, this, [this] { setFontScale(1.0); });
    // Presentation-only: outside it they are disabled, which also leaves Ctrl+0 to View > Reset Zoom.
    for (QAction* a : {m_largerAction, m_smallerAction, m_resetScaleAction})
        a->setEnabled(false);

    m_highContrastAction = new QAction(tr("H&igh-Contrast Theme"), this);
    m_highContrastAction->setObjectName(QStringLiteral("presentHighContrastAction"));
    m_highContrastAction->setCheckable(true);
    m_highContrastAction->setChecked(m_highContrast);
    m_highContrastAction->setStatusTip(
        tr("While presenting: white background, black text and thicker lines"));
    connect(m_highContrastAction, &QAction::toggled, this, &Presentation::setHighContrast);

    m_panelAction = new QAction(tr("Show Parameters &While Presenting"), this);
    m_panelAction->setObjectName(QStringLiteral("presentPanelAction"));
    m_panelAction->setCheckable(true);
    m_panelAction->setChecked(m_showPanel);
    m_panelAction->setShortcut(QKeySequence(Qt::Key_F6));
    m_panelAction->setStatusTip(tr("While presenting: show the parameter panel beside the figure"));
    connect(m_panelAction, &QAction::toggled, this, &Presentation::setShowsPanel);

    // On the window itself too: their shortcuts work while the menu bar is hidden.
    m_window->addActions({m_presentAction, m_largerAction, m_smallerAction, m_resetScaleAction,
                          m_highContrastAction, m_panelAction});

    m_overlay = new QLabel(m_window);
    m_overlay->setObjectName(QStringLiteral("presentationOverlay"));
    m_overlay->setTextFormat(Qt::PlainText);
    m_overlay->setAttribute(Qt::WA_TransparentForMouseEvents);
    // Black on white whatever the theme: legible on a light or dark figure, and small.
    m_overlay->setStyleSheet(
        QStringLiteral("QLabel { background: rgba(255, 255, 255, 225); color: black; "
                       "border: 1px solid black; border-radius: 4px; padding: 2px 8px; }"));
    m_overlay->hide();
}

Presentation::~Presentation()
{
    if (qApp)
        qApp->removeEventFilter(this);
    // The theme is application-wide: a window deleted while presenting must not leave it behind.
    if (m_active && m_saved)
        set_high_contrast_figures(m_saved->highContrast);
}

void Presentation::setStepSource(std::unique_ptr<StepSource> source)
{
    m_steps = std::move(source);
    m_current = -1;
    if (m_active && m_steps) {
        m_steps->begin();
        m_current = m_steps->current().value_or(-1);
    }
    updateOverlay();
    emit stepChanged(m_current);
}

std::optional<ViewKind> Presentation::frontView() const
{
    const QWidget* focus = QApplication::focusWidget();
    for (ViewKind k : kAllViewKinds)
        if (focus && dock(k)->isAncestorOf(focus))
            return k;
    for (ViewKind k : kAllViewKinds) {
        const QDockWidget* d = dock(k);
        if (d->isVisible() && !d->widget()->visibleRegion().isEmpty())
            return k;
    }
    return std::nullopt;
}

void Presentation::enter()
{
    if (m_active)
        return;
    Saved s;
    s.geometry = m_window->saveGeometry();
    s.normalGeometry = m_window->geometry();
    s.state = m_window->saveState();
    s.windowState = m_window->windowState();
    s.menuBar = !m_window->menuBar()->isHidden();
    s.statusBar = !m_window->statusBar()->isHidden();
    s.ownFont = m_window->testAttribute(Qt::WA_SetFont);
    s.font = m_window->font();
    s.palette = QApplication::palette();
    s.style = QApplication::style()->name();
    s.highContrast = high_contrast_figures();
    s.panelMinimumWidth = m_panel->contentMinimumWidth();
    const ViewKind front = frontView().value_or(ViewKind::Heatmap);
    m_saved = s;
    m_active = true;

    if (!m_steps)
        m_steps = std::make_unique<PresetSteps>(m_model);
    m_steps->begin();
    m_current = m_steps->current().value_or(-1);

    // Ctrl+0 resets the text size while presenting (the heatmap still resets its zoom with 0 / Home).
    if (auto* resetZoom = m_window->findChild<QAction*>(QStringLiteral("resetZoomAction"))) {
        m_saved->resetZoomShortcut = resetZoom->shortcut().toString(QKeySequence::PortableText);
        resetZoom->setShortcut({});
    }
    for (QAction* a : {m_largerAction, m_smallerAction, m_resetScaleAction})
        a->setEnabled(true);

    // Chrome off: menu bar, status bar, dock title bars (an empty widget replaces each).
    m_window->menuBar()->hide();
    m_window->statusBar()->hide();
    for (QDockWidget* d : m_window->findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
        d->setTitleBarWidget(new QWidget(d));
    m_importDock->hide();
    showView(front);
    applyPanel();
    applyFontScale();
    applyTheme();

    // Every menu shortcut (undo, go to view, export …) keeps working while the menu bar is hidden.
    const QList<QAction*> own = m_window->actions();
    const std::function<void(const QMenu*)> walk = [&](const QMenu* menu) {
        for (QAction* a : menu->actions()) {
            if (a->menu())
                walk(a->menu());
            else if (!a->shortcut().isEmpty() && !own.contains(a)) {
                m_window->addAction(a);
                m_addedActions.emplace_back(a);
            }
        }
    };
    for (const QAction* a : m_window->menuBar()->actions())
        if (a->menu())
            walk(a->menu());

    qApp->installEventFilter(this);
    m_window->showFullScreen();
    updateOverlay();
    m_overlay->setVisible(!(m_steps && m_steps->showsOwnLabel()));
    m_overlay->raise();
    {
        const QSignalBlocker block(m_presentAction);
        m_presentAction->setChecked(true);
    }
    emit activeChanged(true);
}

void Presentation::leave()
{
    if (!m_active || !m_saved)
        return;
    qApp->removeEventFilter(this);
    m_active = false;
    const Saved s = *m_saved;
    m_saved.reset();
    m_overlay->hide();
    for (const QPointer<QAction>& a : m_addedActions)
        if (a)
            m_window->removeAction(a);
    m_addedActions.clear();
    for (QAction* a : {m_largerAction, m_smallerAction, m_resetScaleAction})
        a->setEnabled(false);
    if (auto* resetZoom = m_window->findChild<QAction*>(QStringLiteral("resetZoomAction")))
        resetZoom->setShortcut(QKeySequence(s.resetZoomShortcut, QKeySequence::PortableText));

    // Fonts and theme as they were. The fonts first: the style change after them makes every widget
    // measure itself again (combo boxes keep the sizes a font change alone leaves them, the
    // presentation's), with the plain style again (presenting installed a ScaledStyle over it).
    m_panel->setFont(QFont());                       // inherits the window's again
    m_window->setFont(s.ownFont ? s.font : QFont()); // an empty font: inherit the application's again
    m_overlay->setFont(QFont());
    m_panel->setMaximumWidth(m_maxPanelWidth);
    set_high_contrast_figures(s.highContrast);
    if (QStyle* style = QStyleFactory::create(s.style))
        QApplication::setStyle(style);
    QApplication::setPalette(s.palette);

    // Chrome and layout.
    for (QDockWidget* d : m_window->findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
        QWidget* bar = d->titleBarWidget();
        d->setTitleBarWidget(nullptr);
        delete bar;
    }
    m_window->menuBar()->setVisible(s.menuBar);
    m_window->statusBar()->setVisible(s.statusBar);
    if (m_loweredMinimum) { // lowered to fit the screen (eventFilter): what the docks need at these fonts
        m_window->setMinimumSize(m_window->minimumSizeHint());
        m_loweredMinimum = false;
    }
    m_window->setWindowState(s.windowState);
    m_window->restoreGeometry(s.geometry);
    // Leaving full screen, some platforms put the frame back after restoreGeometry placed the client
    // area (offscreen: 18 px lower): the exact rectangle as it was.
    if (!(s.windowState & (Qt::WindowFullScreen | Qt::WindowMaximized | Qt::WindowMinimized)))
        m_window->setGeometry(s.normalGeometry);
    // The dock layout last, once the window has its old size (else the docks are laid out in the full
    // screen's proportions and shift when the window shrinks).
    m_window->restoreState(s.state);
    m_shownView.reset();
    {
        const QSignalBlocker block(m_presentAction);
        m_presentAction->setChecked(false);
    }
    emit activeChanged(false);
}

bool Presentation::goToStep(int index)
{
    if (!m_steps || index < 0 || index >= m_steps->count())
        return false;
    if (!m_steps->show(index))
        return false;
    m_current = index;
    updateOverlay();
    emit stepChanged(index);
    return true;
}

void Presentation::syncStep(int index)
{
    if (!m_steps || index < 0 || index >= m_steps->count() || index == m_current)
        return;
    m_current = index;
    updateOverlay();
}

bool Presentation::nextStep()
{
    return goToStep(m_current + 1);
}

bool Presentation::previousStep()
{
    return m_current > 0 && goToStep(m_current - 1);
}

QString Presentation::stepLabel() const
{
    const int n = m_steps ? m_steps->count() : 0;
    if (m_current < 0)
        return tr("– / %1 · PgDn: next").arg(n);
    return tr("%1 / %2 · %3").arg(m_current + 1).arg(n).arg(m_steps->title(m_current));
}

void Presentation::setFontScale(double scale)
{
    if (!std::isfinite(scale))
        return;
    // Rounded to the 25 % steps the keys take, within 100 % … 250 %.
    scale = std::clamp(std::round(scale * 4.0) / 4.0, Settings::kMinFontScale, Settings::kMaxFontScale);
    if (scale == m_fontScale)
        return;
    m_fontScale = scale;
    m_settings->setPresentationFontScale(scale);
    if (m_active)
        applyFontScale();
    emit fontScaleChanged(scale);
}

void Presentation::setHighContrast(bool on)
{
    if (on != m_highContrastAction->isChecked()) {
        m_highContrastAction->setChecked(on); // comes back here through toggled
        return;
    }
    if (on == m_highContrast)
        return;
    m_highContrast = on;
    m_settings->setPresentationHighContrast(on);
    if (m_active)
        applyTheme();
}

void Presentation::setShowsPanel(bool on)
{
    if (on != m_panelAction->isChecked()) {
        m_panelAction->setChecked(on);
        return;
    }
    if (on == m_showPanel)
        return;
    m_showPanel = on;
    m_settings->setPresentationShowsPanel(on);
    if (m_active)
        applyPanel();
}

void Presentation::showView(ViewKind kind)
{
    if (!m_active)
        return;
    m_shownView = kind;
    for (ViewKind k : kAllViewKinds)
        dock(k)->setVisible(k == kind);
    dock(kind)->raise();
    placeOverlay();
}

QFont Presentation::fontAt(double scale) const
{
    // At least 9 pt before scaling, as the figures' scaled_font() does (figure_style.h).
    QFont f = m_saved ? m_saved->font : m_window->font();
    if (f.pointSizeF() > 0)
        f.setPointSizeF(std::max(f.pointSizeF(), 9.0) * scale);
    else if (f.pixelSize() > 0)
        f.setPixelSize(std::max(1, static_cast<int>(std::lround(f.pixelSize() * scale))));
    return f;
}

void Presentation::applyFontScale()
{
    if (!m_saved)
        return;
    applyStyle(); // first: the panel's widths (fitPanel) depend on the style's sizes too
    // The window's font scaled: every view paints from its widget font.
    const QFont f = fontAt(m_fontScale);
    m_window->setFont(f);
    m_overlay->setFont(f); // its style sheet keeps it from inheriting the window's font
    fitPanel();
    placeOverlay();
}

void Presentation::fitPanel()
{
    if (!m_active)
        return;
    ParameterPanel* panel = m_panel;
    const int limit = std::max(200, static_cast<int>(m_window->width() * kMaxPanelShare));
    // The figure has priority: the panel's text at the presentation's scale when its rows, which grow
    // about in proportion, fit within the limit, else at the largest quarter step that fits (at least the
    // normal size). Estimated from the width they needed before presenting: combo boxes keep the width
    // they first had, so the widths measured after a font change are not the ones a smaller font needs.
    const int normal = std::max(1, m_saved ? m_saved->panelMinimumWidth : panel->contentMinimumWidth());
    const double fits = std::floor(4.0 * limit / normal) / 4.0;
    const double scale = std::clamp(fits, 1.0, m_fontScale);
    panel->setFont(fontAt(scale));
    // Never narrower than its rows (they would be cut off), else as wide as they like within the limit.
    const int width =
        std::max(panel->contentMinimumWidth(), std::min(limit, static_cast<int>(m_maxPanelWidth * scale)));
    panel->setMaximumWidth(width);
    if (m_showPanel) {
        // The dock is wider than the panel by its frame.
        const int frame = std::max(0, m_panelDock->width() - panel->width());
        m_window->resizeDocks({m_panelDock}, {width + frame}, Qt::Horizontal);
    }
}

void Presentation::applyTheme()
{
    if (!m_saved)
        return;
    applyStyle(); // the views repaint on the palette change that comes with it
}

void Presentation::applyStyle()
{
    if (!m_saved)
        return;
    // Fusion draws every widget from the palette (as the dark theme does, main_window.cpp); scaled, so
    // that check boxes, icons and arrows grow with the text. The sizes are the main window's alone, as
    // its fonts are (presentation_style.h: a dialog or the explorer opened meanwhile keeps its normal
    // text, so its normal sizes); the theme is the application's, like the figures' theme: whatever
    // window the projector shows has the contrast it needs, and a theme changes no size.
    // The figures' theme first: the views restyle on the style and palette changes below, whichever
    // of the font scale or the theme asked for them.
    set_high_contrast_figures(m_highContrast || m_saved->highContrast);
    const QString base = m_highContrast ? QStringLiteral("fusion") : m_saved->style;
    const auto* current = qobject_cast<const ScaledStyle*>(QApplication::style());
    if (!current || current->scale() != m_fontScale || current->baseStyleName() != base)
        QApplication::setStyle(new ScaledStyle(base, m_fontScale, m_window));
    QApplication::setPalette(m_highContrast ? highContrastPalette() : m_saved->palette);
}

void Presentation::applyPanel()
{
    m_panelDock->setVisible(m_showPanel);
    fitPanel();
}

void Presentation::updateOverlay()
{
    if (m_active)
        m_overlay->setVisible(!(m_steps && m_steps->showsOwnLabel()));
    m_overlay->setText(stepLabel());
    placeOverlay();
}

void Presentation::placeOverlay()
{
    m_overlay->adjustSize();
    // Bottom-right corner of the figure, clear of its title (top) and of the docks beside it (the
    // lesson panel's buttons at the window's corner); the window's corner when no figure is shown.
    const int margin = 8;
    QRect area = m_window->rect();
    if (m_shownView) {
        const QDockWidget* d = dock(*m_shownView);
        if (d->isVisible() && !d->isFloating() && d->width() > 0)
            area = QRect(d->mapTo(m_window, QPoint(0, 0)), d->size());
    }
    m_overlay->move(std::max(0, area.right() + 1 - m_overlay->width() - margin),
                    std::max(0, area.bottom() + 1 - m_overlay->height() - margin));
    m_overlay->raise();
}

bool Presentation::eventFilter(QObject* watched, QEvent* event)
{
    if (!m_active)
        return false;
    if (watched == m_window && event->type() == QEvent::Resize) {
        // While the presented fonts and a lesson step's docks settle, the layout can set the window's
        // minimum width to more than the screen for a moment and widen it (2247 px on a 1920-px screen at
        // 250 %); that minimum then stays. Once settled, the minimum is what the docks need now, within
        // the screen, and the window fits the screen again.
        if (const QScreen* screen = m_window->screen();
            screen && m_window->width() > screen->geometry().width())
            QTimer::singleShot(0, this, [this] {
                const QScreen* screen = m_window->screen();
                if (!m_active || !screen || m_window->width() <= screen->geometry().width())
                    return;
                m_loweredMinimum = true;
                m_window->setMinimumSize(m_window->minimumSizeHint().boundedTo(screen->geometry().size()));
                m_window->setGeometry(screen->geometry());
            });
        fitPanel();
        placeOverlay();
        return false;
    }
    if (m_shownView && watched == dock(*m_shownView) &&
        (event->type() == QEvent::Resize || event->type() == QEvent::Move)) {
        placeOverlay(); // the dock layout settles after the window's resize
        return false;
    }
    if (watched == m_overlay && event->type() == QEvent::FontChange) {
        placeOverlay();
        return false;
    }
    if (event->type() != QEvent::KeyPress)
        return false;
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget || widget->window() != m_window)
        return false; // dialogs, menus and the explorer keep their keys
    const auto* key = static_cast<QKeyEvent*>(event);
    return handleKey(key->key(), key->modifiers() & ~Qt::KeypadModifier);
}

bool Presentation::handleKey(int key, Qt::KeyboardModifiers modifiers)
{
    if (modifiers != Qt::NoModifier)
        return false;
    switch (key) {
    case Qt::Key_Escape:
        // Queued: leaving changes the window while its key event is still being delivered.
        QMetaObject::invokeMethod(this, &Presentation::leave, Qt::QueuedConnection);
        return true;
    case Qt::Key_PageDown: // a clicker's "next": always a step, even on a focused slider
        nextStep();
        return true;
    case Qt::Key_PageUp: previousStep(); return true;
    default: break;
    }
    if (isInputControl(QApplication::focusWidget()))
        return false; // a slider, box or button keeps its arrows, Space, Home and End
    switch (key) {
    case Qt::Key_Right:
    case Qt::Key_Down:
    case Qt::Key_Space: nextStep(); return true;
    case Qt::Key_Left:
    case Qt::Key_Up: previousStep(); return true;
    case Qt::Key_Home: goToStep(0); return true;
    case Qt::Key_End:
        if (m_steps)
            goToStep(m_steps->count() - 1);
        return true;
    default: return false;
    }
}

} // namespace posatlas::ui

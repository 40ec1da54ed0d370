// SPDX-License-Identifier: GPL-3.0-or-later
// Presentation mode (View > Present, F5; Esc or F5 leaves): the main window goes full screen without
// menu bar, status bar and dock title bars, shows one figure (the one in front; View > Go to View
// switches), optionally the parameter panel, at a font scale of 100 % to 250 % that every view, label and
// the panel's widgets follow, in a high-contrast light theme. Figures stay live: the sliders still work.
// The scale is the main window's only: dialogs and the explorer opened while presenting keep their
// normal text and sizes (the theme applies to them too).
//
// Steps: a StepSource lists what PgDn / PgUp walk through. The first source steps through the built-in
// presets (core/io/presets.h); lessons can plug in their own source later (setStepSource). The current
// step "k / n · name" is shown in a small overlay in the top-right corner.
//
// Keys while presenting (an event filter on the application, for the main window only):
//  - PgDn / PgUp (what a presentation clicker sends) always go to the next / previous step, even when a
//    slider has the focus (it would otherwise page through its range);
//  - Right, Down, Space = next; Left, Up = previous; Home / End = first / last step: only when the focus
//    is not in an input control (slider, spin box, line edit, combo box, button), so a focused slider or
//    box keeps its arrows and a focused button its Space. On a figure these keys step (the heatmap's
//    panning arrows and the curves' crosshair keys give way to the steps while presenting).
//  - Esc (and F5) leave.
// Leaving restores the window exactly as it was: geometry and full-screen state, dock layout and
// visibility, dock title bars, the application's palette and style, fonts. The font scale, the
// high-contrast switch and the panel's visibility are presentation-only settings, remembered in the
// settings for the next presentation and never applied outside it. The scenario a step showed stays
// (each step is one undo step: Ctrl+Z returns).
#pragma once

#include "jobs/view_jobs.h"
#include "scenario/params.h"

#include <QByteArray>
#include <QFont>
#include <QObject>
#include <QPalette>
#include <QPointer>
#include <QRect>
#include <QString>

#include <array>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QMainWindow;
class QWidget;

namespace posatlas::ui {

class ParameterPanel;
class ScenarioModel;
class Settings;

// What PgDn / PgUp walk through while presenting.
class StepSource
{
public:
    virtual ~StepSource() = default;
    // Called when a presentation starts (the source may remember where it started from).
    virtual void begin() {}
    virtual int count() const = 0;
    // The step's name for the overlay ("Llama 3.1 8B").
    virtual QString title(int index) const = 0;
    // Shows step `index` (0 <= index < count()). False (with a message on the window) when it cannot.
    virtual bool show(int index) = 0;
    // The step the window shows now, when it can tell (the overlay then starts there); nullopt if none.
    virtual std::optional<int> current() const { return std::nullopt; }
    // True when the source shows its own step label (a lesson's panel): the overlay then stays hidden.
    virtual bool showsOwnLabel() const { return false; }
};

// The built-in presets, in the File menu's order (by id). Each step applies the preset onto the scenario
// the presentation started from, so a step shows the same thing whichever step came before it.
class PresetSteps : public StepSource
{
public:
    explicit PresetSteps(ScenarioModel* model);
    void begin() override;
    int count() const override;
    QString title(int index) const override;
    bool show(int index) override;
    std::optional<int> current() const override;
    // The preset id of step `index`.
    QString presetId(int index) const;

private:
    ScenarioModel* m_model;
    std::vector<QString> m_ids, m_names;
    Scenario m_base;
};

class Presentation : public QObject
{
    Q_OBJECT
public:
    // The parameter panel's largest share of the window's width while presenting.
    static constexpr double kMaxPanelShare = 0.24;

    // What presentation mode changes of the window: the window itself (full screen, menu and status
    // bars, fonts, dock layout), the parameter panel and its dock, the import dock (hidden while
    // presenting), the view docks; the model the preset steps apply to.
    struct Parts {
        QMainWindow* window = nullptr;
        ScenarioModel* model = nullptr;
        ParameterPanel* panel = nullptr;
        QDockWidget* panelDock = nullptr;
        QDockWidget* importDock = nullptr;
        std::array<QDockWidget*, kViewKindCount> docks{};
        int maxPanelWidth = 460; // the panel's maximum width outside presentation mode
    };
    Presentation(const Parts& parts, Settings* settings);
    ~Presentation() override;

    bool isActive() const { return m_active; }
    void enter();
    void leave();
    void toggle() { m_active ? leave() : enter(); }

    // Replaces the step source (nullptr: no steps). The current step is reset.
    void setStepSource(std::unique_ptr<StepSource> source);
    StepSource* stepSource() const { return m_steps.get(); }
    // -1 until a step was shown (or the source recognised the current scenario).
    int currentStep() const { return m_current; }
    bool goToStep(int index);
    // The source moved to `index` by itself (the lesson panel's buttons): the overlay follows.
    void syncStep(int index);
    bool nextStep();
    bool previousStep();
    // "k / n · name", or "– / n" before the first step; what the overlay shows.
    QString stepLabel() const;

    // 1.0 … 2.5 (Settings::kMinFontScale … kMaxFontScale); clamped, stored, applied while presenting.
    double fontScale() const { return m_fontScale; }
    void setFontScale(double scale);
    bool highContrast() const { return m_highContrast; }
    void setHighContrast(bool on);
    bool showsPanel() const { return m_showPanel; }
    void setShowsPanel(bool on);
    // Shows only `kind`'s figure (View > Go to View while presenting).
    void showView(ViewKind kind);

    // The View menu's actions (created with the presentation; the main window adds them to its menu).
    QAction* presentAction() const { return m_presentAction; }
    QAction* largerAction() const { return m_largerAction; }
    QAction* smallerAction() const { return m_smallerAction; }
    QAction* resetScaleAction() const { return m_resetScaleAction; }
    QAction* highContrastAction() const { return m_highContrastAction; }
    QAction* panelAction() const { return m_panelAction; }
    QLabel* overlay() const { return m_overlay; }

signals:
    void activeChanged(bool active);
    void stepChanged(int index);
    void fontScaleChanged(double scale);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool handleKey(int key, Qt::KeyboardModifiers modifiers);
    // The window's font as it was before presenting, times `scale`.
    QFont fontAt(double scale) const;
    void applyFontScale();
    void applyTheme();
    // The application's style (Fusion for the high-contrast theme) scaled by the font scale
    // (presentation_style.h), and the theme's palette.
    void applyStyle();
    void applyPanel();
    // The panel as wide as its widgets need at the font scale, within kMaxPanelShare of the window (the
    // figure has priority); no gap beside it.
    void fitPanel();
    void updateOverlay();
    void placeOverlay();
    std::optional<ViewKind> frontView() const;

    QDockWidget* dock(ViewKind kind) const { return m_docks[static_cast<std::size_t>(kind)]; }

    QMainWindow* m_window;
    ScenarioModel* m_model;
    ParameterPanel* m_panel;
    QDockWidget* m_panelDock;
    QDockWidget* m_importDock;
    std::array<QDockWidget*, kViewKindCount> m_docks;
    int m_maxPanelWidth;
    Settings* m_settings;
    std::unique_ptr<StepSource> m_steps;
    int m_current = -1;
    bool m_active = false;
    double m_fontScale;
    bool m_highContrast;
    bool m_showPanel;
    std::optional<ViewKind> m_shownView;

    // What leave() restores.
    struct Saved {
        QByteArray geometry, state;
        QRect
            normalGeometry; // geometry(): the client area, which restoreGeometry alone can miss by the frame
        Qt::WindowStates windowState;
        bool menuBar = true, statusBar = true;
        bool ownFont = false;
        QFont font;
        QPalette palette;
        QString style;
        bool highContrast = false;
        QString resetZoomShortcut;
        int panelMinimumWidth = 0; // ParameterPanel::contentMinimumWidth() at the normal font
    };
    std::optional<Saved> m_saved;
    bool m_loweredMinimum = false; // eventFilter set the window's minimum size to fit the screen
    std::vector<QPointer<QAction>> m_addedActions; // menu actions reachable while the menu bar is hidden

    QAction* m_presentAction = nullptr;
    QAction* m_largerAction = nullptr;
    QAction* m_smallerAction = nullptr;
    QAction* m_resetScaleAction = nullptr;
    QAction* m_highContrastAction = nullptr;
    QAction* m_panelAction = nullptr;
    QLabel* m_overlay = nullptr;
};

} // namespace posatlas::ui

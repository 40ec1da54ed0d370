// SPDX-License-Identifier: GPL-3.0-or-later
// Typed access to everything the GUI remembers between runs (Hotspot's settings object): window
// geometry and dock layout, the last scenario, recent files and view preferences. The QSettings keys
// live in settings.cpp only.
#pragma once

#include "scenario/params.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QSettings;

namespace posatlas::ui {

class Settings
{
public:
    // Default: the platform's user settings for organisation/application "PosAtlas". With a path: an
    // INI file there (tests, portable use).
    explicit Settings(const QString& iniPath = {});
    ~Settings();
    Settings(const Settings&) = delete;
    Settings& operator=(const Settings&) = delete;

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& geometry);
    QByteArray windowState() const;
    void setWindowState(const QByteArray& state);

    // The context-extension explorer's window geometry (saveGeometry()); empty until it was first closed.
    QByteArray explorerGeometry() const;
    void setExplorerGeometry(const QByteArray& geometry);

    std::optional<Scenario> lastScenario() const;
    void setLastScenario(const Scenario& s);

    static constexpr int kMaxRecentFiles = 8;
    QStringList recentFiles() const;
    // Moves `path` to the front (absolute path), drops duplicates, keeps kMaxRecentFiles.
    void addRecentFile(const QString& path);
    void clearRecentFiles();

    QString colormap() const; // colormap id, "" = automatic
    void setColormap(const QString& id);
    // Heatmap colour scale fitted to the visible window (off: the whole matrix's scale).
    bool fitColorsToView() const;
    void setFitColorsToView(bool on);
    // View > Show Timings: compute and paint milliseconds per view in the status bar (default off).
    bool showTimings() const;
    void setShowTimings(bool on);
    // The "What am I looking at?" panel under a view, expanded (default: collapsed). `view`: a stable id
    // ("heatmap", "curves", "rotation", "spectrum").
    bool explanationExpanded(const QString& view) const;
    void setExplanationExpanded(const QString& view, bool on);
    bool curveLogX() const;
    void setCurveLogX(bool on);

    // The rotation view's query and key positions m and n: nullopt unless both were saved as finite
    // numbers in [0, kMaxSeqLen] (anything else falls back to the defaults).
    std::optional<std::pair<double, double>> rotationPositions() const;
    void setRotationPositions(double m, double n);
    // The methods overlaid on the curves, by id: unknown ids and repeats are dropped.
    std::vector<Method> curveOverlays() const;
    void setCurveOverlays(const std::vector<Method>& methods);
    // The heatmap's matrix kind: nullopt when none was chosen or the saved id is not a known kind.
    std::optional<MatrixKind> matrixKind() const;
    void setMatrixKind(const std::optional<MatrixKind>& kind);

    bool darkTheme() const;
    void setDarkTheme(bool on);

    // Presentation mode (window/presentation.h). The font scale is a presentation-only setting:
    // kMinFontScale … kMaxFontScale (1.0 = the normal size); out-of-range or unreadable values fall
    // back to kDefaultFontScale, and setting one is clamped into the range.
    static constexpr double kMinFontScale = 1.0;
    static constexpr double kMaxFontScale = 2.5;
    // 200 %: on a 1080p projector the figures' tick digits are 16 px tall from the usual 9 pt font
    // (150 % gave 12 px, too small for a room).
    static constexpr double kDefaultFontScale = 2.0;
    double presentationFontScale() const;
    void setPresentationFontScale(double scale);
    // The high-contrast light theme while presenting (default on) and the parameter panel's visibility
    // while presenting (default shown).
    bool presentationHighContrast() const;
    void setPresentationHighContrast(bool on);
    bool presentationShowsPanel() const;
    void setPresentationShowsPanel(bool on);

    // Whether the course's start page was shown (the first launch shows it once).
    bool courseStartPageShown() const;
    void setCourseStartPageShown(bool shown);

    // The interface language chosen in Edit > Preferences: "system" (follow the locale), "en" or "zh_CN".
    // A stored value that names no language (a hand-edited file) reads as "system". It takes effect at
    // the next start (window/language.h installs it before the first widget).
    static const QStringList kLanguageChoices;
    QString languageChoice() const;
    void setLanguageChoice(const QString& choice);

    void sync();

private:
    std::unique_ptr<QSettings> m_settings;
};

} // namespace posatlas::ui

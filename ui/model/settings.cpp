// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/settings.h"

#include "io/input_file.h"
#include "io/scenario_json.h"
#include "methods/registry.h"
#include "scenario/validation.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

namespace posatlas::ui {

namespace {
// Every QSettings key of the application.
constexpr auto kGeometry = "window/geometry";
constexpr auto kState = "window/state";
constexpr auto kExplorerGeometry = "explorer/geometry";
constexpr auto kScenario = "scenario/last";
constexpr auto kRecent = "files/recent";
constexpr auto kColormap = "view/colormap";
constexpr auto kCurveLogX = "view/curveLogX";
constexpr auto kExplanationExpanded = "view/explanationExpanded/"; // + the view's id
constexpr auto kFitColorsToView = "view/fitColorsToView";
constexpr auto kShowTimings = "view/showTimings";
constexpr auto kDarkTheme = "view/darkTheme";
constexpr auto kRotationQuery = "view/rotationQueryPosition";
constexpr auto kRotationKey = "view/rotationKeyPosition";
constexpr auto kCurveOverlays = "view/curveOverlays";
constexpr auto kMatrixKind = "view/matrixKind";
constexpr auto kPresentFontScale = "presentation/fontScale";
constexpr auto kCourseStartPageShown = "course/startPageShown";
constexpr auto kLanguage = "ui/language";
constexpr auto kPresentHighContrast = "presentation/highContrast";
constexpr auto kPresentShowPanel = "presentation/showPanel";
// Bumped when the saved layout would not fit the current set of docks.
constexpr int kStateVersion = 1;

} // namespace

namespace {

// QSettings reads its file when it is constructed, with a plain blocking read: a FIFO there would hang
// the start of the app, and a link to /dev/zero would read forever. Such a file is not used.
bool usable_settings_file(const QString& path)
{
    struct stat st {
    };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return true; // absent: QSettings creates it
    return S_ISREG(st.st_mode);
}

QString default_settings_path()
{
    // Where QSettings(organisation, application) keeps its file on Linux (NativeFormat = INI).
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) +
           QStringLiteral("/PosAtlas/PosAtlas.conf");
}

std::unique_ptr<QSettings> open_settings(const QString& iniPath)
{
    const QString path = iniPath.isEmpty() ? default_settings_path() : iniPath;
    if (!usable_settings_file(path)) {
        std::fprintf(stderr, "posatlas: %s is not a regular file; settings are not read or saved\n",
                     QFile::encodeName(path).constData());
        // A file that is never written: settings live for this run only.
        return std::make_unique<QSettings>(QStringLiteral("/dev/null/posatlas-settings"),
                                           QSettings::IniFormat);
    }
    if (iniPath.isEmpty())
        return std::make_unique<QSettings>(QStringLiteral("PosAtlas"), QStringLiteral("PosAtlas"));
    return std::make_unique<QSettings>(iniPath, QSettings::IniFormat);
}

} // namespace

Settings::Settings(const QString& iniPath) : m_settings(open_settings(iniPath)) {}

Settings::~Settings() = default;

QByteArray Settings::windowGeometry() const
{
    return m_settings->value(kGeometry).toByteArray();
}
void Settings::setWindowGeometry(const QByteArray& geometry)
{
    m_settings->setValue(kGeometry, geometry);
}
QByteArray Settings::windowState() const
{
    if (m_settings->value("window/stateVersion").toInt() != kStateVersion)
        return {};
    return m_settings->value(kState).toByteArray();
}
void Settings::setWindowState(const QByteArray& state)
{
    m_settings->setValue(kState, state);
    m_settings->setValue("window/stateVersion", kStateVersion);
}

QByteArray Settings::explorerGeometry() const
{
    return m_settings->value(kExplorerGeometry).toByteArray();
}
void Settings::setExplorerGeometry(const QByteArray& geometry)
{
    m_settings->setValue(kExplorerGeometry, geometry);
}

std::optional<Scenario> Settings::lastScenario() const
{
    const QByteArray text = m_settings->value(kScenario).toByteArray();
    if (text.isEmpty())
        return std::nullopt;
    // The same JSON as session files (core/io/scenario_json.h): one format, one reader. A saved scenario
    // that no longer reads or validates (an older format, a hand edit) is ignored, not fatal.
    try {
        const Scenario s = scenario_from_json(parse_json_input(text.toStdString()));
        validate(s);
        return s;
    } catch (const InputFileError&) { // not JSON, too deep, or a wrong type
        return std::nullopt;
    } catch (const ParameterError&) {
        return std::nullopt;
    }
}

void Settings::setLastScenario(const Scenario& s)
{
    m_settings->setValue(kScenario, QByteArray::fromStdString(scenario_to_json(s).dump()));
}

QStringList Settings::recentFiles() const
{
    return m_settings->value(kRecent).toStringList();
}

void Settings::addRecentFile(const QString& path)
{
    const QString absolute = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    QStringList list = recentFiles();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMaxRecentFiles)
        list.removeLast();
    m_settings->setValue(kRecent, list);
}

void Settings::clearRecentFiles()
{
    m_settings->remove(kRecent);
}

QString Settings::colormap() const
{
    return m_settings->value(kColormap).toString();
}
void Settings::setColormap(const QString& id)
{
    m_settings->setValue(kColormap, id);
}
bool Settings::fitColorsToView() const
{
    return m_settings->value(kFitColorsToView, false).toBool();
}
void Settings::setFitColorsToView(bool on)
{
    m_settings->setValue(kFitColorsToView, on);
}
bool Settings::showTimings() const
{
    return m_settings->value(kShowTimings, false).toBool();
}
void Settings::setShowTimings(bool on)
{
    m_settings->setValue(kShowTimings, on);
}

bool Settings::explanationExpanded(const QString& view) const
{
    return m_settings->value(QLatin1String(kExplanationExpanded) + view, false).toBool();
}
void Settings::setExplanationExpanded(const QString& view, bool on)
{
    m_settings->setValue(QLatin1String(kExplanationExpanded) + view, on);
}

bool Settings::curveLogX() const
{
    return m_settings->value(kCurveLogX, true).toBool();
}
void Settings::setCurveLogX(bool on)
{
    m_settings->setValue(kCurveLogX, on);
}

std::optional<std::pair<double, double>> Settings::rotationPositions() const
{
    bool okM = false, okN = false;
    const double m = m_settings->value(kRotationQuery).toDouble(&okM);
    const double n = m_settings->value(kRotationKey).toDouble(&okN);
    const auto usable = [](bool ok, double v) {
        return ok && std::isfinite(v) && v >= 0.0 && v <= static_cast<double>(kMaxSeqLen);
    };
    if (!usable(okM, m) || !usable(okN, n))
        return std::nullopt;
    return std::pair{m, n};
}
void Settings::setRotationPositions(double m, double n)
{
    m_settings->setValue(kRotationQuery, m);
    m_settings->setValue(kRotationKey, n);
}

std::vector<Method> Settings::curveOverlays() const
{
    std::vector<Method> out;
    for (const QString& id : m_settings->value(kCurveOverlays).toStringList())
        if (const auto m = parse_method(id.toStdString());
            m && std::find(out.begin(), out.end(), *m) == out.end())
            out.push_back(*m);
    return out;
}
void Settings::setCurveOverlays(const std::vector<Method>& methods)
{
    QStringList ids;
    for (Method m : methods)
        ids.append(QString::fromLatin1(m.id().data(), static_cast<qsizetype>(m.id().size())));
    m_settings->setValue(kCurveOverlays, ids);
}

std::optional<MatrixKind> Settings::matrixKind() const
{
    const QString id = m_settings->value(kMatrixKind).toString();
    if (id.isEmpty())
        return std::nullopt;
    return parse_matrix_kind(id.toStdString());
}
void Settings::setMatrixKind(const std::optional<MatrixKind>& kind)
{
    if (kind)
        m_settings->setValue(
            kMatrixKind, QString::fromLatin1(kind->id().data(), static_cast<qsizetype>(kind->id().size())));
    else
        m_settings->remove(kMatrixKind);
}

bool Settings::darkTheme() const
{
    return m_settings->value(kDarkTheme, false).toBool();
}
void Settings::setDarkTheme(bool on)
{
    m_settings->setValue(kDarkTheme, on);
}

double Settings::presentationFontScale() const
{
    bool ok = false;
    const double v = m_settings->value(kPresentFontScale, kDefaultFontScale).toDouble(&ok);
    return ok && std::isfinite(v) && v >= kMinFontScale && v <= kMaxFontScale ? v : kDefaultFontScale;
}
void Settings::setPresentationFontScale(double scale)
{
    if (!std::isfinite(scale))
        scale = kDefaultFontScale;
    m_settings->setValue(kPresentFontScale, std::clamp(scale, kMinFontScale, kMaxFontScale));
}

bool Settings::presentationHighContrast() const
{
    return m_settings->value(kPresentHighContrast, true).toBool();
}
void Settings::setPresentationHighContrast(bool on)
{
    m_settings->setValue(kPresentHighContrast, on);
}

bool Settings::presentationShowsPanel() const
{
    return m_settings->value(kPresentShowPanel, true).toBool();
}
void Settings::setPresentationShowsPanel(bool on)
{
    m_settings->setValue(kPresentShowPanel, on);
}

const QStringList Settings::kLanguageChoices = {QStringLiteral("system"), QStringLiteral("en"),
                                                QStringLiteral("zh_CN")};

QString Settings::languageChoice() const
{
    const QString choice = m_settings->value(kLanguage, kLanguageChoices.front()).toString();
    return kLanguageChoices.contains(choice) ? choice : kLanguageChoices.front();
}
void Settings::setLanguageChoice(const QString& choice)
{
    m_settings->setValue(kLanguage, kLanguageChoices.contains(choice) ? choice : kLanguageChoices.front());
}

bool Settings::courseStartPageShown() const
{
    return m_settings->value(kCourseStartPageShown, false).toBool();
}
void Settings::setCourseStartPageShown(bool shown)
{
    m_settings->setValue(kCourseStartPageShown, shown);
}

void Settings::sync()
{
    m_settings->sync();
}

} // namespace posatlas::ui

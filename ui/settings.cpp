#include "settings.h"

#include "scenario_model.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSettings>

namespace posatlas::ui {

namespace {
// Every QSettings key of the application.
constexpr auto kGeometry = "window/geometry";
constexpr auto kState = "window/state";
constexpr auto kScenario = "scenario/last";
constexpr auto kRecent = "files/recent";
constexpr auto kColormap = "view/colormap";
constexpr auto kCurveLogX = "view/curveLogX";
constexpr auto kDarkTheme = "view/darkTheme";
// Bumped when the saved layout would not fit the current set of docks.
constexpr int kStateVersion = 1;

QString jsonKey(const ParamSpec& spec)
{
    const QString key = QLatin1String(spec.key);
    if (!spec.method)
        return key;
    const auto id = method_id(*spec.method);
    return QString::fromUtf8(id.data(), static_cast<qsizetype>(id.size())) + QLatin1Char('/') + key;
}

QJsonArray toArray(const std::vector<double>& v)
{
    QJsonArray a;
    for (double x : v)
        a.append(x);
    return a;
}

std::vector<double> fromArray(const QJsonValue& value)
{
    std::vector<double> out;
    for (const QJsonValue& x : value.toArray())
        out.push_back(x.toDouble());
    return out;
}
} // namespace

Settings::Settings(const QString& iniPath)
    : m_settings(iniPath.isEmpty()
                     ? std::make_unique<QSettings>(QStringLiteral("PosAtlas"), QStringLiteral("PosAtlas"))
                     : std::make_unique<QSettings>(iniPath, QSettings::IniFormat))
{
}

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

std::optional<Scenario> Settings::lastScenario() const
{
    const QByteArray text = m_settings->value(kScenario).toByteArray();
    if (text.isEmpty())
        return std::nullopt;
    const QJsonDocument doc = QJsonDocument::fromJson(text);
    if (!doc.isObject())
        return std::nullopt;
    return scenarioFromJson(doc.object());
}

void Settings::setLastScenario(const Scenario& s)
{
    m_settings->setValue(kScenario, QJsonDocument(scenarioToJson(s)).toJson(QJsonDocument::Compact));
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
bool Settings::curveLogX() const
{
    return m_settings->value(kCurveLogX, true).toBool();
}
void Settings::setCurveLogX(bool on)
{
    m_settings->setValue(kCurveLogX, on);
}

bool Settings::darkTheme() const
{
    return m_settings->value(kDarkTheme, false).toBool();
}
void Settings::setDarkTheme(bool on)
{
    m_settings->setValue(kDarkTheme, on);
}

void Settings::sync()
{
    m_settings->sync();
}

QJsonObject Settings::scenarioToJson(const Scenario& s)
{
    QJsonObject json;
    json.insert(QStringLiteral("version"), 1);
    for (const ParamSpec& spec : all_param_specs())
        json.insert(jsonKey(spec), param_value(s, spec.id));
    // Fields without a panel row.
    json.insert(QStringLiteral("learned/table_path"), QString::fromStdString(s.learned.table_path));
    json.insert(QStringLiteral("shaw/initializer_range"), s.shaw.stddev);
    json.insert(QStringLiteral("transformer-xl/initializer_range"), s.transformer_xl.stddev);
    json.insert(QStringLiteral("t5/initializer_range"), s.t5.stddev);
    json.insert(QStringLiteral("deberta/initializer_range"), s.deberta.stddev);
    json.insert(QStringLiteral("cope/initializer_range"), s.cope.stddev);
    json.insert(QStringLiteral("rope/short_factor"), toArray(s.rope.short_factor));
    json.insert(QStringLiteral("rope/long_factor"), toArray(s.rope.long_factor));
    return json;
}

Scenario Settings::scenarioFromJson(const QJsonObject& json)
{
    Scenario s;
    for (const ParamSpec& spec : all_param_specs()) {
        const QJsonValue v = json.value(jsonKey(spec));
        if (v.isDouble())
            set_param_value(s, spec.id, v.toDouble());
    }
    // The method is applied by set_param_value above, after which `head` may have been clamped to a
    // previous method's heads: restore it as saved.
    if (json.value(QStringLiteral("head")).isDouble())
        s.head = json.value(QStringLiteral("head")).toInt();
    s.learned.table_path = json.value(QStringLiteral("learned/table_path")).toString().toStdString();
    s.shaw.stddev = json.value(QStringLiteral("shaw/initializer_range")).toDouble(s.shaw.stddev);
    s.transformer_xl.stddev =
        json.value(QStringLiteral("transformer-xl/initializer_range")).toDouble(s.transformer_xl.stddev);
    s.t5.stddev = json.value(QStringLiteral("t5/initializer_range")).toDouble(s.t5.stddev);
    s.deberta.stddev = json.value(QStringLiteral("deberta/initializer_range")).toDouble(s.deberta.stddev);
    s.cope.stddev = json.value(QStringLiteral("cope/initializer_range")).toDouble(s.cope.stddev);
    s.rope.short_factor = fromArray(json.value(QStringLiteral("rope/short_factor")));
    s.rope.long_factor = fromArray(json.value(QStringLiteral("rope/long_factor")));
    return s;
}

} // namespace posatlas::ui

// SPDX-License-Identifier: GPL-3.0-or-later
// The interface speaks Chinese: the language follows the system locale or the stored choice, the
// compiled translation is embedded, and with Chinese installed no visible text of the main window, its
// menus, the parameter panel of every method or the explorer is left in English. A text counts as
// English when it holds an ordinary English word (3+ letters, lower case after the first) and no CJK
// character; names that stay as they are in Chinese courses (RoPE, Transformer-XL, Llama, Viridis, ...)
// are allowed. Numbers follow one policy: decimal point, no group separator, whatever the locale.
#include "explorer/explorer_window.h"
#include "gui_support.h"
#include "io/presets.h"
#include "jobs/view_jobs.h"
#include "lessons/lesson.h"
#include "lessons/lesson_panel.h"
#include "methods/registry.h"
#include "model/autosave.h"
#include "model/parameter_message.h"
#include "model/scenario_model.h"
#include "views/curve_view.h"
#include "views/explanations.h"
#include "views/heatmap_view.h"
#include "views/rotation_view.h"
#include "views/spectrum_view.h"
#include "widgets/parameter_panel.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/preferences_dialog.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTextDocument>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

// Proper names and words that Chinese texts on positional encoding keep in Latin letters.
const QSet<QString> kKeptNames = {
    QStringLiteral("Shaw"),     QStringLiteral("Transformer"), QStringLiteral("Llama"),
    QStringLiteral("Qwen"),     QStringLiteral("Gemma"),       QStringLiteral("Mistral"),
    QStringLiteral("Phi"),      QStringLiteral("Viridis"),     QStringLiteral("Magma"),
    QStringLiteral("Inferno"),  QStringLiteral("Cividis"),     QStringLiteral("Turbo"),
    QStringLiteral("PosAtlas"), QStringLiteral("Hugging"),     QStringLiteral("Face"),
    QStringLiteral("Ctrl"),     QStringLiteral("Shift"),       QStringLiteral("Alt"),
    QStringLiteral("Esc"),      QStringLiteral("Del"),         QStringLiteral("Yarn"),
    QStringLiteral("English"),  QStringLiteral("Plasma"),      QStringLiteral("Twilight"),
    QStringLiteral("Coolwarm"), QStringLiteral("Gray"),        QStringLiteral("Grey"),
    QStringLiteral("Falcon"),   QStringLiteral("Deepseek"),    QStringLiteral("Yi"),
    QStringLiteral("Baichuan"), QStringLiteral("Mixtral"),     QStringLiteral("aware"),
    QStringLiteral("yarn"),     QStringLiteral("longrope"),    QStringLiteral("ntk"),
    QStringLiteral("Pythia"),   QStringLiteral("Bloom"),       QStringLiteral("Mpt"),
    QStringLiteral("Olmo"),     QStringLiteral("Pixtral"),     QStringLiteral("Swin"),
};

bool hasCjk(const QString& s)
{
    for (QChar c : s)
        if (c.unicode() >= 0x3000 && c.unicode() <= 0x9FFF)
            return true;
    return false;
}

QString plain(QString s)
{
    if (s.contains(QLatin1Char('<'))) {
        QTextDocument doc;
        doc.setHtml(s);
        s = doc.toPlainText();
    }
    return s.remove(QLatin1Char('&'));
}

// Texts that are names, not language: the presets' model names ("Phi-3 mini 128k") and the Hugging Face
// config keys the fields are named by ("mscale").
const QSet<QString>& keptTexts()
{
    static const QSet<QString> texts = [] {
        QSet<QString> t;
        for (const PresetInfo& p : list_presets())
            t.insert(QString::fromStdString(p.name));
        for (const Field* f : all_fields())
            t.insert(QString::fromStdString(f->key));
        return t;
    }();
    return texts;
}

// The first ordinary English word of a text without CJK characters, or an empty string. Citations
// ("Press et al. 2022") name authors and stay as written.
QString englishWord(const QString& text)
{
    QString s = plain(text).trimmed();
    if (hasCjk(s) || keptTexts().contains(s))
        return {};
    static const QRegularExpression citation(QStringLiteral("[A-Z][a-z]+ et al\\. \\d{4}"));
    s.remove(citation);
    static const QRegularExpression token(QStringLiteral("[A-Za-z][A-Za-z0-9_'.]*"));
    static const QRegularExpression word(QStringLiteral("^[A-Za-z][a-z]{2,}$"));
    for (auto it = token.globalMatch(s); it.hasNext();) {
        const QString t = it.next().captured();
        if (word.match(t).hasMatch() && !kKeptNames.contains(t))
            return t;
    }
    return {};
}

void collect(QWidget* root, QStringList& found)
{
    auto check = [&](const QString& where, const QString& text) {
        if (const QString w = englishWord(text); !w.isEmpty())
            found << QStringLiteral("%1: \"%2\" (word \"%3\")").arg(where, text.left(120), w);
    };
    QList<QWidget*> widgets = root->findChildren<QWidget*>();
    widgets.prepend(root);
    for (QWidget* w : widgets) {
        const QString where =
            QString::fromLatin1(w->metaObject()->className()) + QLatin1Char('/') + w->objectName();
        if (w->isWindow())
            check(where + QStringLiteral(" title"), w->windowTitle());
        check(where + QStringLiteral(" tooltip"), w->toolTip());
        if (auto* l = qobject_cast<QLabel*>(w))
            check(where, l->text());
        if (auto* b = qobject_cast<QAbstractButton*>(w))
            check(where, b->text());
        if (auto* g = qobject_cast<QGroupBox*>(w))
            check(where, g->title());
        if (auto* t = qobject_cast<QTabBar*>(w))
            for (int i = 0; i < t->count(); ++i)
                check(where + QStringLiteral(" tab"), t->tabText(i)),
                    check(where + QStringLiteral(" tab tip"), t->tabToolTip(i));
        if (auto* c = qobject_cast<QComboBox*>(w))
            for (int i = 0; i < c->count(); ++i)
                check(where + QStringLiteral(" item"), c->itemText(i));
        if (auto* s = qobject_cast<QAbstractSpinBox*>(w))
            check(where + QStringLiteral(" special"), s->specialValueText());
        for (QAction* a : w->actions()) {
            check(where + QStringLiteral(" action"), a->text());
            check(where + QStringLiteral(" action tip"),
                  a->toolTip() == plain(a->text()) ? QString() : a->toolTip());
        }
    }
}

void collectMenus(QMenuBar* bar, QStringList& found)
{
    std::function<void(QMenu*)> walk = [&](QMenu* m) {
        if (const QString w = englishWord(m->title()); !w.isEmpty())
            found << QStringLiteral("menu \"%1\"").arg(m->title());
        for (QAction* a : m->actions()) {
            if (a->menu())
                walk(a->menu());
            else if (const QString w = englishWord(a->text()); !w.isEmpty())
                found
                    << QStringLiteral("menu %1 > \"%2\" (word \"%3\")").arg(plain(m->title()), a->text(), w);
        }
    };
    for (QAction* a : bar->actions())
        if (a->menu())
            walk(a->menu());
}

// Every text a figure shows for `s`: titles, legends, notes, markers, panel captions, the explanation.
QStringList figureTexts(const Scenario& s)
{
    ViewSettings v;
    v.max_distance = 256;
    QStringList out;
    const HeatmapData heat = heatmap_job(s, v);
    out << heat.title << heat.sampling_note;
    for (const HeatmapPanel& p : heat.panels)
        out << p.label;
    const CurveData curves = curve_job(s, v);
    out << curves.title << curves.note << curves.x_label << curves.y_label;
    for (const CurveSeries& c : curves.series)
        out << c.name;
    for (const CurveMarker& m : curves.markers)
        out << m.label;
    if (s.method == Method::RoPE) {
        const SpectrumData spectrum = spectrum_job(s, v);
        out << spectrum.title << spectrum.scaling_label << spectrum.note;
        out << rotation_job(s, v).title;
    }
    for (ViewKind k : kAllViewKinds)
        out << explanation(k, s);
    return out;
}

// The mnemonic letter of a menu entry ("Show &Timings" -> 'T'; "&&" is an ampersand), or a null QChar.
QChar mnemonic(const QString& text)
{
    for (qsizetype i = 0; i + 1 < text.size(); ++i)
        if (text.at(i) == QLatin1Char('&')) {
            if (text.at(i + 1) == QLatin1Char('&')) {
                ++i;
                continue;
            }
            return text.at(i + 1).toUpper();
        }
    return {};
}

// Every menu of the menu bar and its submenus: entries whose mnemonics collide within one menu (Alt and
// the letter would only cycle between them), and mnemonics that are not a Latin letter or digit (a
// Chinese character cannot be typed with Alt).
void checkMnemonics(QMenuBar* bar, QStringList& problems)
{
    std::function<void(QMenu*)> walk = [&](QMenu* menu) {
        QHash<QChar, QString> taken;
        for (QAction* a : menu->actions()) {
            if (a->isSeparator())
                continue;
            if (a->menu())
                walk(a->menu());
            const QChar m = mnemonic(a->text());
            if (m.isNull())
                continue;
            if (!(m.unicode() < 128 && m.isLetterOrNumber()))
                problems << QStringLiteral("%1 › %2: mnemonic '%3' is not a Latin letter")
                                .arg(menu->title(), a->text(), m);
            else if (taken.contains(m))
                problems << QStringLiteral("%1 › \"%2\" and \"%3\" share &%4")
                                .arg(menu->title(), taken[m], a->text(), m);
            else
                taken.insert(m, a->text());
        }
    };
    QHash<QChar, QString> top;
    for (QAction* a : bar->actions()) {
        if (const QChar m = mnemonic(a->text()); !m.isNull()) {
            if (top.contains(m))
                problems << QStringLiteral("menu bar: \"%1\" and \"%2\" share &%3").arg(top[m], a->text(), m);
            top.insert(m, a->text());
        }
        if (a->menu())
            walk(a->menu());
    }
}

} // namespace

class I18nTest : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(test::initGuiSuite(m_dir, test::UserSettings::InFolder)); }
    void cleanup() { installLanguage(QStringLiteral("en")); }

    void systemLocaleChoosesTheLanguage()
    {
        QCOMPARE(resolveLanguage(QStringLiteral("system"), {QStringLiteral("zh-Hans-CN")}),
                 QStringLiteral("zh_CN"));
        QCOMPARE(resolveLanguage(QStringLiteral("system"), {QStringLiteral("zh-TW")}),
                 QStringLiteral("zh_CN"));
        QCOMPARE(
            resolveLanguage(QStringLiteral("system"), {QStringLiteral("de-DE"), QStringLiteral("en-GB")}),
            QStringLiteral("en"));
        QCOMPARE(resolveLanguage(QStringLiteral("system"), {QStringLiteral("fr-FR")}), QStringLiteral("en"));
        // A stored choice wins over the system.
        QCOMPARE(resolveLanguage(QStringLiteral("en"), {QStringLiteral("zh-CN")}), QStringLiteral("en"));
        QCOMPARE(resolveLanguage(QStringLiteral("zh_CN"), {QStringLiteral("en-US")}),
                 QStringLiteral("zh_CN"));
    }

    void preferencesStoreTheChoice()
    {
        // The choice lives in the window's Settings (an INI file here), under its own key.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString ini = dir.filePath(QStringLiteral("settings.ini"));
        Settings settings(ini);
        QCOMPARE(settings.languageChoice(), QStringLiteral("system"));
        PreferencesDialog dialog(settings);
        QCOMPARE(dialog.selectedLanguage(), QStringLiteral("system"));
        dialog.setSelectedLanguage(QStringLiteral("zh_CN"));
        QVERIFY(dialog.apply());
        QCOMPARE(settings.languageChoice(), QStringLiteral("zh_CN"));
        QVERIFY(!dialog.apply()); // unchanged the second time
        settings.sync();
        QCOMPARE(Settings(ini).languageChoice(), QStringLiteral("zh_CN")); // stored, read back
        // A hand-edited value that names no language falls back to the system's.
        QSettings(ini, QSettings::IniFormat)
            .setValue(QStringLiteral("ui/language"), QStringLiteral("klingon"));
        QCOMPARE(Settings(ini).languageChoice(), QStringLiteral("system"));
    }

    void chineseTranslationIsEmbedded()
    {
        QVERIFY(installLanguage(QStringLiteral("zh_CN")));
        QCOMPARE(currentLanguage(), QStringLiteral("zh_CN"));
        const QString file = QCoreApplication::translate("posatlas::ui::MainWindow", "&File");
        QVERIFY2(hasCjk(file), qPrintable(file));
        QVERIFY(file.contains(QLatin1String("&F"))); // the mnemonic survives translation
        // Core's strings (registry labels) are translated by ui/ in their own contexts.
        QVERIFY(hasCjk(QCoreApplication::translate("Method", "Sinusoidal")));
        QVERIFY(installLanguage(QStringLiteral("en")));
        QCOMPARE(QCoreApplication::translate("posatlas::ui::MainWindow", "&File"), QStringLiteral("&File"));
    }

    void englishPluralsAgreeWithTheCount()
    {
        // The English catalogue holds only plural forms (translations.py: -pluralonly).
        QVERIFY(installLanguage(QStringLiteral("en")));
        const char* context = "posatlas::ui::ParameterPanel";
        QCOMPARE(QCoreApplication::translate(context, "%n values: %1%2", nullptr, 1),
                 QStringLiteral("1 value: %1%2"));
        QCOMPARE(QCoreApplication::translate(context, "%n values: %1%2", nullptr, 3),
                 QStringLiteral("3 values: %1%2"));
    }

    void noEnglishLeftInTheMainWindow()
    {
        QVERIFY(installLanguage(QStringLiteral("zh_CN")));
        MainWindow window(m_dir.filePath(QStringLiteral("i18n.ini")));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QStringList found;
        collectMenus(window.menuBar(), found);
        // Every method's parameter rows, labels and tooltips.
        QComboBox* methods = window.parameterPanel()->methodCombo();
        for (int i = 0; i < methods->count(); ++i) {
            methods->setCurrentIndex(i);
            QCoreApplication::processEvents();
            collect(&window, found);
        }
        found.removeDuplicates();
        for (const QString& f : found)
            qWarning("English: %s", qPrintable(f));
        QVERIFY2(found.isEmpty(),
                 qPrintable(QStringLiteral("%1 texts in English (listed above)").arg(found.size())));
    }

    // Figure texts are built in the view jobs, away from any widget: their titles come out in Chinese too
    // (a translation looked up under another context than the one lupdate recorded would stay English).
    void figureTitlesAreChinese()
    {
        QVERIFY(installLanguage(QStringLiteral("zh_CN")));
        MainWindow window(m_dir.filePath(QStringLiteral("titles.ini")));
        window.setComputeHiddenViews(true);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(test::waitIdle(window.jobs()));
        const std::vector<std::pair<const char*, const Figure*>> figures = {
            {"heatmap", window.heatmapView()},
            {"rotation", window.rotationView()},
            {"curves", window.curveView()},
            {"spectrum", window.spectrumView()}};
        for (const auto& [name, figure] : figures) {
            const QString title = figure->figureTitle();
            QVERIFY2(!title.isEmpty(), name);
            QVERIFY2(hasCjk(title), qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(name), title)));
        }
    }

    // Scalings are named as papers and model cards name them (YaRN, Llama 3, 线性插值 (PI)), never by their
    // config ids ("yarn", "llama3"), and the curves' legends and notes have no ASCII stand-ins ("bound(0)",
    // "θ_i") in Chinese. English keeps "linear (PI)", "dynamic NTK" and "split halves", which hold the ids as
    // words.
    void figureTextsNameScalingsNotConfigIds_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
        QTest::newRow("en") << QStringLiteral("en");
    }
    void figureTextsNameScalingsNotConfigIds()
    {
        QFETCH(QString, language);
        QVERIFY(installLanguage(language));
        const bool zh = language == QLatin1String("zh_CN");
        const QRegularExpression ids(
            zh ? QStringLiteral(
                     "\\b(yarn|llama3|longrope|ntk|linear|dynamic|interpolate|split)\\b|bound\\(0\\)|θ_")
               : QStringLiteral("\\b(yarn|llama3|longrope|ntk|interpolate)\\b|θ_"));
        std::vector<std::pair<QString, Scenario>> scenarios;
        for (const char* type : {"linear", "ntk", "dynamic", "yarn", "llama3", "longrope"}) {
            Scenario s;
            s.method = Method::RoPE;
            s.seq_len = 64;
            param(Method::RoPE, "rope_type")->set(s, type);
            s.params<RopeParams>().factor = 4;
            if (QLatin1String(type) == QLatin1String("longrope")) { // Phi-3's per-pair factors, one per pair
                s.params<RopeParams>().short_factor.assign(
                    static_cast<std::size_t>(s.params<RopeParams>().rotary_dim() / 2), 1.0);
                s.params<RopeParams>().long_factor.assign(
                    static_cast<std::size_t>(s.params<RopeParams>().rotary_dim() / 2), 4.0);
            }
            scenarios.emplace_back(QString::fromLatin1(type), s);
        }
        for (const char* scaling : {"interpolate", "ntk"}) {
            Scenario s;
            s.method = Method::ALiBi;
            s.seq_len = 64;
            param(Method::ALiBi, "scaling")->set(s, scaling);
            scenarios.emplace_back(QStringLiteral("alibi ") + QLatin1String(scaling), s);
        }
        Scenario split;
        split.method = Method::Sinusoidal;
        split.seq_len = 64;
        param(Method::Sinusoidal, "layout")->set(split, "split");
        scenarios.emplace_back(QStringLiteral("sinusoidal split"), split);
        QStringList found;
        for (const auto& [name, s] : scenarios) {
            QStringList texts;
            try {
                texts = figureTexts(s);
            } catch (const std::exception& e) {
                QFAIL(qPrintable(name + QStringLiteral(": ") + QString::fromUtf8(e.what())));
            }
            for (const QString& text : texts)
                if (const auto m = ids.match(text); m.hasMatch())
                    found << QStringLiteral("%1: \"%2\" in \"%3\"").arg(name, m.captured(), text.left(160));
        }
        found.removeDuplicates();
        for (const QString& f : found)
            qWarning("%s", qPrintable(f));
        QVERIFY2(found.isEmpty(),
                 qPrintable(QStringLiteral("%1 texts with a config id (listed above)").arg(found.size())));
        // And the names themselves, in the title's scenario caption.
        if (zh) {
            QVERIFY2(scenario_caption(scenarios[0].second).contains(QStringLiteral("线性插值")),
                     qPrintable(scenario_caption(scenarios[0].second)));
            QVERIFY(scenario_caption(scenarios[1].second).contains(QStringLiteral("NTK 感知")));
        } else {
            QVERIFY(scenario_caption(scenarios[3].second).contains(QStringLiteral("YaRN")));
            QVERIFY(scenario_caption(scenarios[4].second).contains(QStringLiteral("Llama 3")));
        }
    }

    // Every menu of the main window, in both languages: no two entries of one menu share a mnemonic (the
    // View menu's 停止比较 and 显示耗时 were both T), and every mnemonic can be typed.
    void menusHaveNoDuplicateMnemonics_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
        QTest::newRow("en") << QStringLiteral("en");
    }
    void menusHaveNoDuplicateMnemonics()
    {
        QFETCH(QString, language);
        QVERIFY(installLanguage(language));
        MainWindow window(m_dir.filePath(QStringLiteral("mnemonics-%1.ini").arg(language)));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QStringList problems;
        checkMnemonics(window.menuBar(), problems);
        // The menus that fill in with the scenario: the matrix kinds of another method.
        QVERIFY(window.model()->setMethod(Method::T5));
        QCoreApplication::processEvents();
        checkMnemonics(window.menuBar(), problems);
        problems.removeDuplicates();
        for (const QString& p : problems)
            qWarning("%s", qPrintable(p));
        QVERIFY2(problems.isEmpty(),
                 qPrintable(QStringLiteral("%1 mnemonic problems (listed above)").arg(problems.size())));
    }

    // The restore dialog's date as a Chinese reader writes it (2026年12月6日), not the C locale's
    // "6 Dec 2026"; English keeps its own.
    void restoreDialogDateIsInTheLanguage()
    {
        const QDateTime when(QDate(2026, 12, 6), QTime(14, 5));
        QVERIFY(installLanguage(QStringLiteral("en")));
        QCOMPARE(dateTimeText(when), QStringLiteral("6 Dec 2026, 14:05"));
        QVERIFY(installLanguage(QStringLiteral("zh_CN")));
        QCOMPARE(dateTimeText(when), QStringLiteral("2026年12月6日 14:05"));

        // The dialog itself: a crash's autosave offered in Chinese.
        QTemporaryDir state;
        qputenv("POSATLAS_STATE_DIR", state.path().toLocal8Bit());
        const QString settings = m_dir.filePath(QStringLiteral("restore.ini"));
        {
            MainWindow crashed(settings);
            QVERIFY(crashed.model()->setValue(param("seq_len"), 300));
            QVERIFY(crashed.autosave()->saveNow());
        }
        QVERIFY(QFile::exists(QDir(state.path()).filePath(QLatin1String(Autosave::kFileName))));
        MainWindow window(settings);
        QString asked;
        window.setRecoveryPrompt([&asked](const QString& text, std::function<void(bool)> answer) {
            asked = text;
            answer(false);
        });
        window.show();
        QTRY_VERIFY(!asked.isEmpty());
        qunsetenv("POSATLAS_STATE_DIR");
        QVERIFY2(asked.contains(QStringLiteral("年")) && asked.contains(QStringLiteral("日")),
                 qPrintable(asked));
        static const QRegularExpression month(
            QStringLiteral("\\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\\b"));
        QVERIFY2(!month.match(asked).hasMatch(), qPrintable(asked));
    }

    // Lists in Chinese titles are joined with 、, not ", " (the window title of a comparison).
    void windowTitleListsUseTheChineseSeparator()
    {
        QVERIFY(installLanguage(QStringLiteral("zh_CN")));
        MainWindow window(m_dir.filePath(QStringLiteral("separators.ini")));
        window.show();
        window.setComparedMethods({Method::Sinusoidal, Method::RoPE, Method::ALiBi});
        QVERIFY2(window.windowTitle().contains(QStringLiteral("正弦、RoPE、ALiBi")) ||
                     window.windowTitle().contains(QStringLiteral("、RoPE、")),
                 qPrintable(window.windowTitle()));
        QVERIFY2(!window.windowTitle().contains(QStringLiteral(", ")), qPrintable(window.windowTitle()));
        // An ALiBi caption with chosen slopes: the slopes joined the same way.
        Scenario s;
        s.method = Method::ALiBi;
        s.params<AlibiParams>().slopes = {0.3, 0.2};
        QVERIFY2(scenario_caption(s).contains(QStringLiteral("、")), qPrintable(scenario_caption(s)));
        QVERIFY2(!scenario_caption(s).contains(QStringLiteral(", ")), qPrintable(scenario_caption(s)));
    }

    // The core's validation messages (English data: key, allowed values, value) are said in Chinese:
    // the parameter by its panel label and key, the allowed range from its translated template.
    void validationMessagesAreChinese()
    {
        QVERIFY(installLanguage(QStringLiteral("zh_CN")));
        MainWindow window(m_dir.filePath(QStringLiteral("messages.ini")));
        const Scenario before = window.model()->scenario();
        QSignalSpy rejected(window.model(), &ScenarioModel::parameterRejected);
        QVERIFY(!window.model()->setValue(param("seq_len"), 0));
        QCOMPARE(rejected.size(), 1);
        const QString message = rejected.front().front().toString();
        QVERIFY2(hasCjk(message), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("seq_len")),
                 qPrintable(message)); // the key stays, for the CLI and sessions
        QVERIFY2(message.contains(QStringLiteral("[1, ")), qPrintable(message)); // the range as numbers
        QCOMPARE(window.model()->scenario(), before);
        // Every template the core phrases comes out translated (an untranslated one would equal the English).
        for (const char* allowed :
             {"an integer in [1, 8]", "an even integer in [2, 8192]", "> 0 and <= 1e+12", ">= 1 and <= 64",
              "one of a|b", "one of logits|bias for rope", "finite",
              "at most 5 (the logits: 9 MiB would exceed the 8 MiB memory budget)"}) {
            const QString text = allowedText(allowed);
            QVERIFY2(text != QLatin1String(allowed) && hasCjk(text), allowed);
        }
        installLanguage(QStringLiteral("en"));
        QCOMPARE(allowedText("an integer in [1, 8]"), QStringLiteral("an integer in [1, 8]"));
    }

    // The course page and a lesson's controls are in Chinese, and so is the shipped lesson text.
    void lessonPanelIsChinese()
    {
        QVERIFY(installLanguage(QStringLiteral("zh_CN")));
        MainWindow window(m_dir.filePath(QStringLiteral("lesson.ini")));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showCourse();
        QStringList found;
        collect(window.lessonPanel(), found);
        QVERIFY(window.openLesson(course_lessons(QStringLiteral("zh_CN")).value(0)));
        collect(window.lessonPanel(), found);
        found.removeDuplicates();
        for (const QString& f : found)
            qWarning("English: %s", qPrintable(f));
        QVERIFY2(found.isEmpty(),
                 qPrintable(QStringLiteral("%1 texts in English (listed above)").arg(found.size())));
        QVERIFY(hasCjk(window.lessonPanel()->textBrowser()->toPlainText()));
    }

    void noEnglishLeftInTheExplorer()
    {
        QVERIFY(installLanguage(QStringLiteral("zh_CN")));
        ExplorerWindow explorer;
        explorer.resize(1400, 900);
        explorer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&explorer));
        QStringList found;
        collect(&explorer, found);
        if (explorer.menuBar())
            collectMenus(explorer.menuBar(), found);
        found.removeDuplicates();
        for (const QString& f : found)
            qWarning("English: %s", qPrintable(f));
        QVERIFY2(found.isEmpty(),
                 qPrintable(QStringLiteral("%1 texts in English (listed above)").arg(found.size())));
    }

    void numbersUseTheDecimalPointUnderAnyLocale()
    {
        const QLocale before;
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        {
            QDoubleSpinBox d;
            d.setDecimals(2);
            d.setValue(0.5);
            QCOMPARE(d.text(), QStringLiteral("0,50")); // the problem the policy removes
        }
        applyNumberPolicy();
        QDoubleSpinBox d;
        d.setDecimals(2);
        d.setRange(0, 1e6);
        d.setValue(0.5);
        QCOMPARE(d.text(), QStringLiteral("0.50"));
        QSpinBox i;
        i.setRange(0, 100000);
        i.setValue(8000);
        QCOMPARE(i.text(), QStringLiteral("8000"));
        QLocale::setDefault(before);
    }
};

QTEST_MAIN(I18nTest)
#include "test_i18n.moc"

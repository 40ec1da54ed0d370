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
#include "lessons/lesson.h"
#include "lessons/lesson_panel.h"
#include "model/parameter_message.h"
#include "model/scenario_model.h"
#include "methods/registry.h"
#include "views/curve_view.h"
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
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QTabBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTest>
#include <QTextDocument>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

// Proper names and words that Chinese texts on positional encoding keep in Latin letters.
const QSet<QString> kKeptNames = {
    QStringLiteral("Shaw"),     QStringLiteral("Transformer"), QStringLiteral("Llama"),  QStringLiteral("Qwen"),
    QStringLiteral("Gemma"),    QStringLiteral("Mistral"),     QStringLiteral("Phi"),    QStringLiteral("Viridis"),
    QStringLiteral("Magma"),    QStringLiteral("Inferno"),     QStringLiteral("Cividis"), QStringLiteral("Turbo"),
    QStringLiteral("PosAtlas"), QStringLiteral("Hugging"),     QStringLiteral("Face"),   QStringLiteral("Ctrl"),
    QStringLiteral("Shift"),    QStringLiteral("Alt"),         QStringLiteral("Esc"),    QStringLiteral("Del"),
    QStringLiteral("Yarn"),     QStringLiteral("English"),     QStringLiteral("Plasma"), QStringLiteral("Twilight"),
    QStringLiteral("Coolwarm"), QStringLiteral("Gray"),        QStringLiteral("Grey"),   QStringLiteral("Falcon"),
    QStringLiteral("Deepseek"), QStringLiteral("Yi"),          QStringLiteral("Baichuan"), QStringLiteral("Mixtral"),
    QStringLiteral("aware"),    QStringLiteral("yarn"),        QStringLiteral("longrope"), QStringLiteral("ntk"),
    QStringLiteral("Pythia"),   QStringLiteral("Bloom"),       QStringLiteral("Mpt"),    QStringLiteral("Olmo"),
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
        const QString where = QString::fromLatin1(w->metaObject()->className()) + QLatin1Char('/') + w->objectName();
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
                check(where + QStringLiteral(" tab"), t->tabText(i)), check(where + QStringLiteral(" tab tip"), t->tabToolTip(i));
        if (auto* c = qobject_cast<QComboBox*>(w))
            for (int i = 0; i < c->count(); ++i)
                check(where + QStringLiteral(" item"), c->itemText(i));
        if (auto* s = qobject_cast<QAbstractSpinBox*>(w))
            check(where + QStringLiteral(" special"), s->specialValueText());
        for (QAction* a : w->actions()) {
            check(where + QStringLiteral(" action"), a->text());
            check(where + QStringLiteral(" action tip"), a->toolTip() == plain(a->text()) ? QString() : a->toolTip());
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
                found << QStringLiteral("menu %1 > \"%2\" (word \"%3\")").arg(plain(m->title()), a->text(), w);
        }
    };
    for (QAction* a : bar->actions())
        if (a->menu())
            walk(a->menu());
}

} // namespace

class I18nTest : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QApplication::setOrganizationName(QStringLiteral("PosAtlasTest"));
        QApplication::setApplicationName(QStringLiteral("ui_i18n_tests"));
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.path());
        QSettings::setDefaultFormat(QSettings::IniFormat);
    }
    void cleanup() { installLanguage(QStringLiteral("en")); }

    void systemLocaleChoosesTheLanguage()
    {
        QCOMPARE(resolveLanguage(QStringLiteral("system"), {QStringLiteral("zh-Hans-CN")}), QStringLiteral("zh_CN"));
        QCOMPARE(resolveLanguage(QStringLiteral("system"), {QStringLiteral("zh-TW")}), QStringLiteral("zh_CN"));
        QCOMPARE(resolveLanguage(QStringLiteral("system"), {QStringLiteral("de-DE"), QStringLiteral("en-GB")}),
                 QStringLiteral("en"));
        QCOMPARE(resolveLanguage(QStringLiteral("system"), {QStringLiteral("fr-FR")}), QStringLiteral("en"));
        // A stored choice wins over the system.
        QCOMPARE(resolveLanguage(QStringLiteral("en"), {QStringLiteral("zh-CN")}), QStringLiteral("en"));
        QCOMPARE(resolveLanguage(QStringLiteral("zh_CN"), {QStringLiteral("en-US")}), QStringLiteral("zh_CN"));
    }

    void preferencesStoreTheChoice()
    {
        setLanguageChoice(QStringLiteral("system"));
        PreferencesDialog dialog;
        QCOMPARE(dialog.selectedLanguage(), QStringLiteral("system"));
        dialog.setSelectedLanguage(QStringLiteral("zh_CN"));
        QVERIFY(dialog.apply());
        QCOMPARE(languageChoice(), QStringLiteral("zh_CN"));
        QVERIFY(!dialog.apply()); // unchanged the second time
        // A hand-edited value that names no language falls back to the system's.
        QSettings().setValue(QStringLiteral("ui/language"), QStringLiteral("klingon"));
        QCOMPARE(languageChoice(), QStringLiteral("system"));
        setLanguageChoice(QStringLiteral("system"));
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
        QVERIFY2(found.isEmpty(), qPrintable(QStringLiteral("%1 texts in English (listed above)").arg(found.size())));
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
        QVERIFY2(message.contains(QStringLiteral("seq_len")), qPrintable(message)); // the key stays, for the CLI and sessions
        QVERIFY2(message.contains(QStringLiteral("[1, ")), qPrintable(message));    // the range as numbers
        QCOMPARE(window.model()->scenario(), before);
        // Every template the core phrases comes out translated (an untranslated one would equal the English).
        for (const char* allowed : {"an integer in [1, 8]", "an even integer in [2, 8192]", "> 0 and <= 1e+12",
                                    ">= 1 and <= 64", "one of a|b", "one of logits|bias for rope", "finite",
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
        QVERIFY2(found.isEmpty(), qPrintable(QStringLiteral("%1 texts in English (listed above)").arg(found.size())));
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
        QVERIFY2(found.isEmpty(), qPrintable(QStringLiteral("%1 texts in English (listed above)").arg(found.size())));
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

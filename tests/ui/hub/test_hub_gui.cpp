// SPDX-License-Identifier: GPL-3.0-or-later
// Real models in the GUI: File > Open Weights… (hub/weights_dialog.h: tensors with dtype and shape, the
// known position tensor preselected, the choice one undo step that the view's caption calls trained),
// File > Open Model… (hub/model_dialog.h: the cache listed, a download from a fake Hub served by this test
// on 127.0.0.1 running off the GUI thread, cancel) and opening a cached model. Fake caches are built here in
// huggingface_hub's layout; nothing reaches the network. With POSATLAS_SCREENSHOT_DIR set, both dialogs
// are saved as PNG there for a look.
#include "fake_hub.h"
#include "gui_support.h"
#include "hub/model_dialog.h"
#include "hub/weights_dialog.h"
#include "jobs/view_jobs.h"
#include "model/scenario_model.h"
#include "weights_fixtures.h"

#include <QListWidget>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QUndoStack>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace posatlas;
using namespace posatlas::test;
namespace fs = std::filesystem;

namespace {

void put(const fs::path& p, const std::string& bytes)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
}

// GPT-2-like: wpe.weight 8 x 4 F32 (row p = p), a 1-D bias and an integer tensor that cannot be tables.
std::string checkpoint()
{
    std::vector<float> wpe;
    for (int p = 0; p < 8; ++p)
        for (int c = 0; c < 4; ++c)
            wpe.push_back(static_cast<float>(p));
    return safetensors_file({f32_tensor("wpe.weight", 8, 4, wpe), f32_tensor("h.0.attn.bias", 1, 2, {1, 2}),
                             u16_tensor("wte.weight", "F16", {3, 4}, std::vector<std::uint16_t>(12, 0x3C00)),
                             u16_tensor("ids", "U16", {3}, {1, 2, 3})});
}

void screenshot(QWidget& w, const QString& name)
{
    const QByteArray dir = qgetenv("POSATLAS_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        w.grab().save(QString::fromUtf8(dir) + QLatin1Char('/') + name);
}

} // namespace

class HubGuiTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString settings() const { return m_dir.filePath(QStringLiteral("settings.ini")); }
    fs::path root() const { return fs::path(m_dir.path().toStdString()) / "hub"; }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("HF_HUB_CACHE", QByteArray::fromStdString(root().string()));
        const fs::path m = root() / "models--org--tiny-gpt2";
        put(m / "blobs" / "e1", R"({"model_type":"gpt2","n_positions":8,"n_embd":4,"n_head":1})");
        put(m / "blobs" / "e2", checkpoint());
        fs::create_directories(m / "snapshots" / "c0ffee");
        fs::create_symlink("../../blobs/e1", m / "snapshots" / "c0ffee" / "config.json");
        fs::create_symlink("../../blobs/e2", m / "snapshots" / "c0ffee" / "model.safetensors");
        put(m / "refs" / "main", "c0ffee");
    }

    void weightsDialogMarksAndPreselectsTheKnownPositionTensor()
    {
        put(root().parent_path() / "gpt2.safetensors", checkpoint());
        const SafetensorsCatalog cat = read_safetensors((root().parent_path() / "gpt2.safetensors").string());
        ui::WeightsDialog dialog(cat);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QCOMPARE(dialog.tensor(), QStringLiteral("wpe.weight"));
        QTreeWidget* list = dialog.tensorList();
        QCOMPARE(list->topLevelItemCount(), 4);
        const auto row = [&](const QString& name) {
            return list->findItems(name, Qt::MatchExactly, 0).value(0);
        };
        QCOMPARE(row("wpe.weight")->text(1), QStringLiteral("F32"));
        QCOMPARE(row("wpe.weight")->text(2), QStringLiteral("8x4"));
        QVERIFY(row("wpe.weight")->text(3).contains(QStringLiteral("GPT-2")));
        QVERIFY(row("wte.weight")->flags() & Qt::ItemIsEnabled); // any float matrix may be chosen
        QVERIFY(!(row("ids")->flags() & Qt::ItemIsEnabled));     // an integer vector may not
        dialog.selectTensor(QStringLiteral("wte.weight"));
        QCOMPARE(dialog.tensor(), QStringLiteral("wte.weight"));
        screenshot(dialog, QStringLiteral("open_weights_dialog.png"));
    }

    void usingWeightsIsOneUndoStepAndTheCaptionSaysTrained()
    {
        auto w = showMainWindow(settings());
        const QString path = QString::fromStdString((root().parent_path() / "gpt2.safetensors").string());
        const int before = w->model()->undoStack()->count();
        QVERIFY(w->useWeights(path, QStringLiteral("wpe.weight")));
        QCOMPARE(w->model()->undoStack()->count(), before + 1);
        const Scenario s = w->model()->scenario();
        QCOMPARE(s.method, Method::Learned);
        QCOMPARE(QString::fromStdString(s.params<LearnedParams>().table_tensor),
                 QStringLiteral("wpe.weight"));
        QVERIFY2(ui::scenario_caption(s).contains(QStringLiteral("trained wpe.weight from gpt2.safetensors")),
                 qPrintable(ui::scenario_caption(s)));
        QVERIFY(waitIdle(w->jobs()));
        w->model()->undoStack()->undo();
        QVERIFY(w->model()->scenario().params<LearnedParams>().table_path.empty());

        // A tensor that is not a table: a message, no undo step.
        QVERIFY(!w->useWeights(path, QStringLiteral("ids")));
        QCOMPARE(w->model()->undoStack()->count(), before + 1);
    }

    void openingACachedModelReadsItsConfigAndPositionTable()
    {
        auto w = showMainWindow(settings());
        QVERIFY(w->openCachedModel(QStringLiteral("org/tiny-gpt2")));
        const Scenario s = w->model()->scenario();
        QCOMPARE(s.method, Method::Learned);
        QCOMPARE(fs::path(s.params<LearnedParams>().table_path),
                 root() / "models--org--tiny-gpt2" / "snapshots" / "c0ffee" / "model.safetensors");
        QVERIFY(w->importReportText().contains(QStringLiteral("org/tiny-gpt2")));
        QVERIFY(waitIdle(w->jobs()));
        QVERIFY(!w->openCachedModel(QStringLiteral("org/absent")));
        QVERIFY2(w->statusMessage().contains(QStringLiteral("posatlas download org/absent")),
                 qPrintable(w->statusMessage()));
    }

    void modelDialogListsTheCacheAndDownloadsOffTheGuiThread()
    {
        FakeHub hub;
        hub.files["/org/fetched/resolve/main/config.json"] =
            R"({"model_type":"gpt2","n_positions":8,"n_embd":4})";
        hub.files["/org/fetched/resolve/" + hub.commit + "/model.safetensors"] =
            QByteArray::fromStdString(checkpoint());
        qputenv("HF_ENDPOINT", hub.endpoint().toUtf8());
        ui::ModelDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QCOMPARE(dialog.modelList()->count(), 1);
        QVERIFY(dialog.modelList()->item(0)->text().contains(QStringLiteral("org/tiny-gpt2")));

        QVERIFY(!dialog.startDownload(QStringLiteral("not a name")));
        QVERIFY(dialog.statusText().contains(QStringLiteral("not a Hugging Face model name")));

        QSignalSpy done(&dialog, &ui::ModelDialog::downloadFinished);
        QVERIFY(dialog.startDownload(QStringLiteral("org/fetched")));
        QVERIFY(dialog.downloading());
        QVERIFY(done.wait(30000)); // the GUI thread keeps serving the fake Hub meanwhile
        QCOMPARE(done.at(0).at(0).toBool(), true);
        QCOMPARE(dialog.modelList()->count(), 2);
        QCOMPARE(dialog.selectedModel(), QStringLiteral("org/fetched@") + QString::fromUtf8(hub.commit));
        screenshot(dialog, QStringLiteral("open_model_dialog.png"));

        // A server that never answers, cancelled: the dialog says so and nothing new is listed.
        hub.special["/org/slow/resolve/main/config.json"] = [](const Seen&) {
            return Answer{200, {}, {}, -1, true};
        };
        QVERIFY(dialog.startDownload(QStringLiteral("org/slow")));
        QTest::qWait(100);
        dialog.cancelDownload();
        QVERIFY(done.wait(30000));
        QCOMPARE(done.at(1).at(0).toBool(), false);
        QVERIFY2(dialog.statusText().contains(QStringLiteral("cancelled")), qPrintable(dialog.statusText()));
        QCOMPARE(dialog.modelList()->count(), 2);
        qunsetenv("HF_ENDPOINT");
    }
};

QTEST_MAIN(HubGuiTest)
#include "test_hub_gui.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// Real models in the GUI: File > Open Weights… (hub/weights_dialog.h: tensors with dtype and shape, the
// known position tensor preselected, the choice one undo step that the view's caption calls trained),
// File > Open Model… (hub/model_dialog.h: the cache listed, a download from a fake Hub served by this test
// on 127.0.0.1 running off the GUI thread, cancel) and opening a cached model. Fake caches are built here in
// huggingface_hub's layout; nothing reaches the network.
#include "explorer/explorer_model.h"
#include "explorer/explorer_window.h"
#include "fake_hub.h"
#include "gui_support.h"
#include "hub/model_dialog.h"
#include "hub/weights_dialog.h"
#include "jobs/view_jobs.h"
#include "methods/shaw/shaw.h"
#include "model/scenario_model.h"
#include "views/heatmap_view.h"
#include "weights_fixtures.h"
#include "widgets/parameter_panel.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDropEvent>
#include <QListWidget>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
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

// T5-small-like: the encoder's and decoder's layer-0 relative_attention_bias, 32 buckets x 8 heads,
// entry (b, h) = b - h (decoder: + 100), and a shared embedding that is not a position table.
std::string t5_checkpoint()
{
    std::vector<float> enc, dec;
    for (int b = 0; b < 32; ++b)
        for (int h = 0; h < 8; ++h) {
            enc.push_back(static_cast<float>(b - h));
            dec.push_back(static_cast<float>(b - h + 100));
        }
    return safetensors_file(
        {f32_tensor("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", 32, 8, enc),
         f32_tensor("decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", 32, 8, dec),
         f32_tensor("shared.weight", 2, 4, {1, 2, 3, 4, 5, 6, 7, 8})});
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
        QVERIFY(initGuiSuite(m_dir));
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

    void aT5BiasTensorFeedsTheT5MethodWithItsShapeAndDirection()
    {
        auto w = showMainWindow(settings());
        const QString path = QString::fromStdString((root().parent_path() / "t5.safetensors").string());
        put(path.toStdString(), t5_checkpoint());
        {
            // The dialog preselects the encoder's table (though the decoder's sorts first) and says where it
            // goes.
            ui::WeightsDialog dialog(read_safetensors(path.toStdString()));
            QCOMPARE(dialog.tensor(),
                     QStringLiteral("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight"));
            auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
            QCOMPARE(ok->text(), QStringLiteral("Use as T5 Bias Table"));
            dialog.selectTensor(QStringLiteral("shared.weight"));
            QCOMPARE(ok->text(), QStringLiteral("Use as Learned Table"));
            dialog.selectTensor(
                QStringLiteral("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight"));
        }
        const int before = w->model()->undoStack()->count();
        QVERIFY(w->useWeights(
            path, QStringLiteral("decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight")));
        QCOMPARE(w->model()->undoStack()->count(), before + 1);
        Scenario s = w->model()->scenario();
        QCOMPARE(s.method, Method::T5);
        QCOMPARE(s.params<T5Params>().num_heads, 8);
        QCOMPARE(s.params<T5Params>().num_buckets, 32);
        QVERIFY(!s.params<T5Params>().bidirectional); // the decoder's table: causal buckets
        QVERIFY2(ui::scenario_caption(s).contains(QStringLiteral("trained decoder bias from t5.safetensors")),
                 qPrintable(ui::scenario_caption(s)));
        QVERIFY(waitIdle(w->jobs()));
        // The curves view shows each head's learned bias against distance: the decoder's (b, h) = b - h +
        // 100, and a key 5 before the query is causal bucket 5, so head 3 reads 102 there.
        const ui::CurveData c = ui::curve_job(s, ui::ViewSettings{}, {}, {});
        QCOMPARE(c.series.size(), 8); // causal: one series per head
        QCOMPARE(c.y_column, QStringLiteral("bias"));
        QVERIFY2(c.title.contains(QStringLiteral("learned bias per head")), qPrintable(c.title));
        QCOMPARE(c.series[3].value_at(5.0), 102.0);
        const auto at5 = std::find(c.series[3].x.begin(), c.series[3].x.end(), 5.0);
        QVERIFY(at5 != c.series[3].x.end());
        QCOMPARE(c.series[3].y[static_cast<std::size_t>(at5 - c.series[3].x.begin())], 102.0);
        // The panel cannot set what the table fixes: 12 heads is refused with the reason, nothing changes.
        QVERIFY(!w->model()->setValue(ui::param(Method::T5, "num_heads"), 12.0));
        QCOMPARE(w->model()->scenario().params<T5Params>().num_heads, 8);
        w->model()->undoStack()->undo();
        QVERIFY(w->model()->scenario().params<T5Params>().bias_path.empty());
    }

    void aDebertaCheckpointFeedsTheDebertaMethodAndAnyTensorCanBeAMethodsTable()
    {
        auto w = showMainWindow(settings());
        const QString path = QString::fromStdString((root().parent_path() / "deberta.safetensors").string());
        // DeBERTa-v3-like: rel_embeddings 2 x 4 buckets = 8 rows of hidden size 6 (entry (r, c) = r - c), a
        // word embedding, and a 5 x 3 matrix that fits Shaw's a^K with k = 2 and head_dim 3.
        std::vector<float> rel, shaw;
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 6; ++c)
                rel.push_back(static_cast<float>(r - c));
        for (int r = 0; r < 5; ++r)
            for (int c = 0; c < 3; ++c)
                shaw.push_back(static_cast<float>(10 * r + c));
        put(path.toStdString(),
            safetensors_file(
                {f32_tensor("deberta.embeddings.word_embeddings.weight", 4, 6, std::vector<float>(24, 1.0f)),
                 f32_tensor("deberta.encoder.rel_embeddings.weight", 8, 6, rel),
                 f32_tensor("layer0.a_k", 5, 3, shaw)}));
        {
            // The dialog preselects the known tensor and sends it to DeBERTa's relative embeddings.
            ui::WeightsDialog dialog(read_safetensors(path.toStdString()));
            QCOMPARE(dialog.tensor(), QStringLiteral("deberta.encoder.rel_embeddings.weight"));
            QCOMPARE(dialog.target(), QStringLiteral("deberta/rel_embeddings"));
            auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
            QCOMPARE(ok->text(), QStringLiteral("Use as Method Table"));
            // Every method table is offered.
            QVERIFY(dialog.targetBox()->findData(QStringLiteral("shaw/key_table")) >= 0);
            QVERIFY(dialog.targetBox()->findData(QStringLiteral("transformer-xl/r_net")) >= 0);
            QVERIFY(dialog.targetBox()->findData(QStringLiteral("cope/pos_emb")) >= 0);
        }
        const int before = w->model()->undoStack()->count();
        QVERIFY2(w->useWeights(path, QStringLiteral("deberta.encoder.rel_embeddings.weight")),
                 qPrintable(w->statusMessage()));
        QCOMPARE(w->model()->undoStack()->count(), before + 1);
        Scenario s = w->model()->scenario();
        QCOMPARE(s.method, Method::DeBERTa);
        QCOMPARE(s.params<DebertaParams>().position_buckets, 4); // 8 rows = 2 att_span
        QCOMPARE(s.params<DebertaParams>().rel_embeddings_tensor,
                 std::string("deberta.encoder.rel_embeddings.weight"));
        QVERIFY2(ui::scenario_caption(s).contains(
                     QStringLiteral("trained relative embeddings table from deberta.safetensors")),
                 qPrintable(ui::scenario_caption(s)));
        QVERIFY(waitIdle(w->jobs()));
        QVERIFY(!w->heatmapView()->data().title.isEmpty());
        // The seeded stand-in's seed row stays (the projections are still seeded).
        QVERIFY(w->parameterPanel()->isRowVisible(ui::param(Method::DeBERTa, "seed")));

        // Any 2-D tensor can be a method's table: layer0.a_k as Shaw's a^K, which sets k and head_dim.
        QVERIFY2(w->useWeights(path, QStringLiteral("layer0.a_k"), QStringLiteral("shaw/key_table")),
                 qPrintable(w->statusMessage()));
        s = w->model()->scenario();
        QCOMPARE(s.method, Method::Shaw);
        QCOMPARE(s.params<ShawParams>().max_relative_position, 2);
        QCOMPARE(s.params<ShawParams>().head_dim, 3);
        QCOMPARE(make_shaw_tables(s.params<ShawParams>()).a_key(4, 2), 42.0);
        QVERIFY(waitIdle(w->jobs()));
        // A table its method cannot take: 8 rows are no 2k + 1, and its 6 columns would contradict the
        // 3-wide a^K already set. A message, no undo step, nothing changed.
        const int count = w->model()->undoStack()->count();
        QVERIFY(!w->useWeights(path, QStringLiteral("deberta.encoder.rel_embeddings.weight"),
                               QStringLiteral("shaw/value_table")));
        QCOMPARE(w->model()->undoStack()->count(), count);
        QCOMPARE(w->model()->scenario().params<ShawParams>().value_table, std::string());
        w->model()->undoStack()->undo();
        w->model()->undoStack()->undo();
        QCOMPARE(w->model()->scenario().params<DebertaParams>().rel_embeddings, std::string());
    }

    void openingACachedT5ModelReadsItsTrainedBias()
    {
        // In the cache for this test only (the model dialog's test counts the cached models).
        const fs::path t5 = root() / "models--org--tiny-t5";
        put(t5 / "blobs" / "e1",
            R"({"model_type":"t5","num_heads":8,"d_model":32,"d_kv":4,"relative_attention_num_buckets":32,"relative_attention_max_distance":128})");
        put(t5 / "blobs" / "e2", t5_checkpoint());
        fs::create_directories(t5 / "snapshots" / "c0ffee");
        fs::create_symlink("../../blobs/e1", t5 / "snapshots" / "c0ffee" / "config.json");
        fs::create_symlink("../../blobs/e2", t5 / "snapshots" / "c0ffee" / "model.safetensors");
        put(t5 / "refs" / "main", "c0ffee");
        struct Cleanup {
            fs::path dir;
            ~Cleanup() { fs::remove_all(dir); }
        } cleanup{t5};
        auto w = showMainWindow(settings());
        QVERIFY(w->openCachedModel(QStringLiteral("org/tiny-t5")));
        const Scenario s = w->model()->scenario();
        QCOMPARE(s.method, Method::T5);
        QCOMPARE(QString::fromStdString(s.params<T5Params>().bias_tensor),
                 QStringLiteral("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight"));
        QVERIFY(s.params<T5Params>().bidirectional);
        QVERIFY2(
            ui::scenario_caption(s).contains(QStringLiteral("trained encoder bias from model.safetensors")),
            qPrintable(ui::scenario_caption(s)));
        QVERIFY(waitIdle(w->jobs()));
    }

    void ggufOpensByPathByDragAndDropAndInTheExplorer()
    {
        // A llama.cpp file's metadata (gguf-py constants): base 500000, head dim 4096 / 32 = 128, 8192
        // trained.
        const auto gguf = [](float base) {
            GgufWriter w;
            w.string("general.architecture", "llama")
                .u32("llama.context_length", 8192)
                .u32("llama.embedding_length", 4096)
                .u32("llama.attention.head_count", 32)
                .f32("llama.rope.freq_base", base)
                .u32("llama.rope.dimension_count", 128);
            return w.bytes() + std::string(64, '\0'); // tensor data is never read
        };
        const fs::path a = root().parent_path() / "model-a.gguf";
        const fs::path b = root().parent_path() / "model-b.GGUF";
        put(a, gguf(500000.0f));
        put(b, gguf(1000000.0f));

        auto w = showMainWindow(settings());
        QVERIFY(w->openFile(QString::fromStdString(a.string()))); // File > Open config.json… takes this path
        QCOMPARE(w->model()->scenario().method, Method::RoPE);
        QCOMPARE(w->model()->scenario().params<RopeParams>().rope_theta, 500000.0);
        QCOMPARE(w->model()->scenario().params<RopeParams>().head_dim, 128);
        QVERIFY2(w->importReportText().contains(QStringLiteral("llama.rope.freq_base")),
                 qPrintable(w->importReportText()));

        // Dropped on the window: accepted on entry, opened after the drop returns.
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(QString::fromStdString(b.string()))});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w.get(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w.get(), &drop);
        QTRY_COMPARE(w->model()->scenario().params<RopeParams>().rope_theta, 1000000.0);
        // Anything else is refused at the door.
        QMimeData other;
        other.setUrls({QUrl::fromLocalFile(QStringLiteral("/tmp/notes.txt"))});
        QDragEnterEvent refused(QPoint(10, 10), Qt::CopyAction, &other, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w.get(), &refused);
        QVERIFY(!refused.isAccepted());
        QVERIFY(waitIdle(w->jobs()));

        ui::ExplorerWindow explorer;
        QVERIFY2(explorer.openConfig(QString::fromStdString(a.string())), qPrintable(explorer.statusText()));
        QCOMPARE(explorer.model()->modelParams().rope_theta, 500000.0);
        QCOMPARE(explorer.model()->trainedLength(), std::int64_t{8192});
        QVERIFY(QTest::qWaitFor([&explorer] { return !explorer.jobs()->busy(); }, 400000));
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
        QVERIFY(!dialog.findChild<QProgressBar*>()->isVisible());
        QCOMPARE(dialog.selectedModel(), QStringLiteral("org/fetched@") + QString::fromUtf8(hub.commit));

        // A server that never answers, cancelled: the dialog says so and nothing new is listed.
        hub.special["/org/slow/resolve/main/config.json"] = [](const Seen&) {
            return Answer{200, {}, {}, -1, true, 0};
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

    void modelDialogCancelButtonStopsTheDownload()
    {
        FakeHub hub;
        hub.special["/org/never/resolve/main/config.json"] = [](const Seen&) {
            return Answer{200, {}, {}, -1, true, 0};
        };
        qputenv("HF_ENDPOINT", hub.endpoint().toUtf8());
        ui::ModelDialog dialog;
        dialog.show();
        const int listed = dialog.modelList()->count();
        auto* cancel = dialog.findChild<QPushButton*>(QStringLiteral("cancelDownload"));
        QVERIFY(cancel);
        QVERIFY(!cancel->isEnabled());
        // The progress bar only while a download runs: idle and empty it looked like an empty text field.
        auto* progress = dialog.findChild<QProgressBar*>();
        QVERIFY(progress);
        QVERIFY(!progress->isVisible());
        QSignalSpy done(&dialog, &ui::ModelDialog::downloadFinished);
        QVERIFY(dialog.startDownload(QStringLiteral("org/never")));
        QVERIFY(cancel->isEnabled());
        QVERIFY(progress->isVisible());
        QTRY_VERIFY(!hub.seen.isEmpty()); // the request has reached the (silent) server
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(!dialog.downloading());
        QVERIFY(!cancel->isEnabled());
        QVERIFY(!progress->isVisible());
        QVERIFY(done.wait(5000));
        QCOMPARE(done.count(), 1);
        QCOMPARE(done.at(0).at(0).toBool(), false);
        QVERIFY2(dialog.statusText().contains(QStringLiteral("cancelled")), qPrintable(dialog.statusText()));
        // The worker saw the tracker's cancel predicate and stopped: it does not wait out the 30 s timeout.
        QVERIFY(dialog.jobs()->waitForWorkers(10000));
        QTest::qWait(50);
        QCOMPARE(done.count(), 1);
        QCOMPARE(dialog.modelList()->count(), listed);
        qunsetenv("HF_ENDPOINT");
    }

    void modelDialogNewerDownloadSupersedesTheRunningOne()
    {
        FakeHub hub;
        hub.special["/org/stuck/resolve/main/config.json"] = [](const Seen&) {
            return Answer{200, {}, {}, -1, true, 0};
        };
        hub.files["/org/second/resolve/main/config.json"] =
            R"({"model_type":"gpt2","n_positions":8,"n_embd":4})";
        qputenv("HF_ENDPOINT", hub.endpoint().toUtf8());
        ui::ModelDialog dialog;
        dialog.show();
        const int listed = dialog.modelList()->count();
        QSignalSpy done(&dialog, &ui::ModelDialog::downloadFinished);
        QVERIFY(dialog.startDownload(QStringLiteral("org/stuck")));
        QTRY_VERIFY(!hub.seen.isEmpty());
        const quint64 first = dialog.jobs()->generation(0);
        // The second request is taken while the first hangs; only the second reports.
        QVERIFY(dialog.startDownload(QStringLiteral("org/second")));
        QVERIFY(dialog.downloading());
        QVERIFY(done.wait(30000));
        QCOMPARE(done.at(0).at(0).toBool(), true);
        QVERIFY(dialog.jobs()->generation(0) > first);
        QVERIFY2(dialog.statusText().contains(QStringLiteral("org/second")), qPrintable(dialog.statusText()));
        QVERIFY(dialog.selectedModel().startsWith(QStringLiteral("org/second@")));
        QCOMPARE(dialog.modelList()->count(), listed + 1);
        // The superseded download was cancelled (it does not hang until its timeout) and never reports.
        QVERIFY(dialog.jobs()->waitForWorkers(10000));
        QTest::qWait(50);
        QCOMPARE(done.count(), 1);
        qunsetenv("HF_ENDPOINT");
    }
};

QTEST_MAIN(HubGuiTest)
#include "test_hub_gui.moc"

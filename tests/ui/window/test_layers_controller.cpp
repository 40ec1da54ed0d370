// SPDX-License-Identifier: GPL-3.0-or-later
// The Layers dock on the controllers' parts without a MainWindow (layers_controller.h, layers_panel.h):
// an imported model's layers become cells of their kind, selecting a layer puts its positional encoding
// into the scenario as one undo step (Gemma 3's local layers: default RoPE with rope_local_base_freq,
// modeling_gemma3.py; Llama 4's NoPE layers, configuration_llama4.py no_rope_layers), undo brings the
// layer before back, sessions keep the selection, and the receptive field is receptive_field_start's.
#include "controller_parts.h"
#include "methods/nope/nope.h"
#include "window/import_controller.h"
#include "window/layers_controller.h"
#include "window/layers_panel.h"

#include <QFile>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

QString config(const char* name)
{
    return QStringLiteral(POSATLAS_TEST_DATA "/configs/") + QLatin1String(name);
}

struct LayerParts {
    test::ControllerParts parts;
    LayersController layers{parts.model};
    ImportController import{parts.model, parts.settings.get(), parts.sessions, parts.status, &parts.window};
    LayersPanel panel{&layers};

    LayerParts()
    {
        import.setLayers(&layers);
        parts.sessions->setLayers(&layers);
        panel.resize(1200, 400);
    }
};

} // namespace

class LayersControllerTest : public QObject
{
    Q_OBJECT

private slots:
    // Gemma 3 12B's config omits num_hidden_layers: Gemma3TextConfig's 26, every sixth global
    // (configuration_gemma3.py: sliding when (i + 1) % sliding_window_pattern != 0).
    void gemmaShowsOneCellPerLayerOfItsKind()
    {
        LayerParts p;
        QVERIFY(p.import.openConfig(config("gemma3_12b.json")));
        const auto& layers = p.layers.layers();
        QCOMPARE(layers.size(), std::size_t{26});
        QVERIFY(p.panel.emptyText().isEmpty());
        p.panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p.panel));
        const QImage strip = p.panel.strip()->grab().toImage();
        const qreal dpr = strip.devicePixelRatio();
        for (int i = 0; i < 26; ++i) {
            const LayerKind want = (i + 1) % 6 != 0 ? LayerKind::Sliding : LayerKind::Global;
            QCOMPARE(layer_kind(layers[static_cast<std::size_t>(i)]), want);
            const QRect cell = p.panel.strip()->cellRect(i);
            QVERIFY(cell.width() > 2);
            // Below the letter, inside the cell (a neighbour's focus frame passes beside its edges).
            const QPoint at(static_cast<int>(cell.center().x() * dpr),
                            static_cast<int>((cell.bottom() - 2) * dpr));
            QVERIFY2(strip.pixelColor(at) == layer_kind_color(want), qPrintable(QString::number(i)));
        }
        QVERIFY2(p.panel.legendText().contains(QStringLiteral("sliding window of 1024 keys")),
                 qPrintable(p.panel.legendText()));
        QVERIFY(p.panel.legendText().contains(QStringLiteral("5, 11, 17, 23")));
    }

    void slidingLayerSetsTheLocalBaseAndGlobalLayerTheModelsScaling()
    {
        LayerParts p;
        QVERIFY(p.import.openConfig(config("gemma3_12b.json")));
        const RopeParams imported = p.parts.model->scenario().params<RopeParams>();
        QCOMPARE(imported.rope_type, RopeType::Linear);
        const int steps = p.parts.model->undoStack()->count();
        QSignalSpy selection(&p.layers, &LayersController::selectionChanged);

        QVERIFY(p.layers.selectLayer(0));
        QCOMPARE(p.parts.model->undoStack()->count(), steps + 1);
        QCOMPARE(p.layers.selected(), 0);
        const RopeParams local = p.parts.model->scenario().params<RopeParams>();
        QCOMPARE(local.rope_theta, 10000.0); // rope_local_base_freq
        QCOMPARE(local.rope_type, RopeType::Default);
        QCOMPARE(local.factor, 1.0);
        QCOMPARE(local.head_dim, imported.head_dim);
        QVERIFY(p.panel.selectionText().contains(QStringLiteral("layer 0")));
        // Its mask: causal, narrowed to the sliding window of 1024 keys (config sliding_window).
        QVERIFY(p.parts.model->scenario().causal);
        QCOMPARE(p.parts.model->scenario().window, LayerAttention::Sliding);
        QCOMPARE(p.parts.model->scenario().window_span, std::int64_t{1024});

        QVERIFY(p.layers.selectLayer(5));
        QCOMPARE(p.parts.model->undoStack()->count(), steps + 2);
        QCOMPARE(p.parts.model->scenario().params<RopeParams>(), imported); // θ = 1e6, linear ×8
        QCOMPARE(p.parts.model->scenario().window, LayerAttention::Global); // a global layer: causal alone
        QVERIFY(p.parts.model->scenario().causal);
        QCOMPARE(p.layers.selected(), 5);
        QCOMPARE(selection.count(), 2);

        // Undo shows the layer selected before; a second undo the import, no layer.
        p.parts.model->undoStack()->undo();
        QCOMPARE(p.layers.selected(), 0);
        QCOMPARE(p.parts.model->scenario().params<RopeParams>(), local);
        QCOMPARE(p.parts.model->scenario().window, LayerAttention::Sliding);
        p.parts.model->undoStack()->undo();
        QCOMPARE(p.layers.selected(), -1);
        QCOMPARE(p.parts.model->scenario().params<RopeParams>(), imported);

        // Out of range: refused, nothing changes.
        QVERIFY(!p.layers.selectLayer(26));
        QVERIFY(!p.layers.selectLayer(-1));
        QCOMPARE(p.parts.model->undoStack()->index(), steps);
    }

    // Llama 4 Scout: every fourth layer is NoPE with the attention temperature (no_rope_layer_interval 4),
    // the others chunked RoPE θ = 500000 with the llama3 scaling ×16.
    void llamaNopeLayerSelectsNope()
    {
        LayerParts p;
        QVERIFY2(p.import.openConfig(config("llama4_scout.json")),
                 qPrintable(p.parts.status->shownMessage()));
        const auto& layers = p.layers.layers();
        QCOMPARE(layers.size(), std::size_t{48});
        QCOMPARE(layer_kind(layers[3]), LayerKind::NoPE);
        QCOMPARE(layer_kind(layers[0]), LayerKind::Chunked);
        QVERIFY(layers[3].temperature);
        const RopeParams imported = p.parts.model->scenario().params<RopeParams>();

        QVERIFY(p.layers.selectLayer(3));
        QCOMPARE(p.parts.model->scenario().method, kNoPE);
        QCOMPARE(p.parts.model->scenario().params<NopeParams>().head_dim, imported.head_dim);
        QVERIFY(p.panel.selectionText().contains(QStringLiteral("temperature")));
        // Its temperature goes into the scenario: Scout's floor_scale 8192 and attn_scale 0.1.
        QVERIFY(p.parts.model->scenario().attn_temperature_tuning);
        QCOMPARE(p.parts.model->scenario().floor_scale, layers[3].floor_scale);
        QCOMPARE(p.parts.model->scenario().attn_scale, layers[3].attn_scale);

        QVERIFY(p.layers.selectLayer(0));
        QCOMPARE(p.parts.model->scenario().method, Method::RoPE);
        QCOMPARE(p.parts.model->scenario().params<RopeParams>(), imported);
        QCOMPARE(imported.rope_theta, 500000.0);
        QCOMPARE(imported.rope_type, RopeType::Llama3);
        QCOMPARE(imported.factor, 16.0);
        // The chunked layer's mask: chunks of attention_chunk_size = 8192 positions.
        QCOMPARE(p.parts.model->scenario().window, LayerAttention::Chunked);
        QCOMPARE(p.parts.model->scenario().window_span, std::int64_t{8192});
        QVERIFY(!p.parts.model->scenario().attn_temperature_tuning); // the RoPE layers have none
        // The NoPE layer is global: the causal mask alone.
        QVERIFY(p.layers.selectLayer(3));
        QCOMPARE(p.parts.model->scenario().window, LayerAttention::Global);
        QVERIFY(p.parts.model->scenario().causal);
    }

    void arrowKeysHomeAndEndWalkTheStrip()
    {
        LayerParts p;
        QVERIFY(p.import.openConfig(config("gemma3_12b.json")));
        p.panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p.panel));
        p.panel.strip()->setFocus();
        QTest::keyClick(p.panel.strip(), Qt::Key_Right); // nothing selected: the first layer
        QCOMPARE(p.layers.selected(), 0);
        QTest::keyClick(p.panel.strip(), Qt::Key_Right);
        QCOMPARE(p.layers.selected(), 1);
        QTest::keyClick(p.panel.strip(), Qt::Key_End);
        QCOMPARE(p.layers.selected(), 25);
        QTest::keyClick(p.panel.strip(), Qt::Key_Left);
        QCOMPARE(p.layers.selected(), 24);
        QTest::keyClick(p.panel.strip(), Qt::Key_Home);
        QCOMPARE(p.layers.selected(), 0);
        // A click on a cell selects it.
        QTest::mouseClick(p.panel.strip(), Qt::LeftButton, {}, p.panel.strip()->cellRect(11).center());
        QCOMPARE(p.layers.selected(), 11);
    }

    // The cells and the chart follow the font: presentation mode's 200 % doubles them.
    void stripGrowsWithTheFont()
    {
        LayerParts p;
        QVERIFY(p.import.openConfig(config("gemma3_12b.json")));
        const int normal = p.panel.strip()->sizeHint().height();
        QFont f = p.panel.font();
        f.setPointSizeF(f.pointSizeF() * 2.0);
        p.panel.setFont(f);
        const int large = p.panel.strip()->sizeHint().height();
        QVERIFY2(large >= normal * 17 / 10, qPrintable(QStringLiteral("%1 -> %2").arg(normal).arg(large)));
    }

    // The bars are q - receptive_field_start(layers, k, q) at the model's last position: Gemma 3's first
    // five sliding layers reach k (W - 1) back, the sixth (global) all the way.
    void receptiveFieldIsTheCoresReach()
    {
        LayerParts p;
        QVERIFY(p.import.openConfig(config("gemma3_12b.json")));
        const std::int64_t q = p.panel.chart()->query();
        QCOMPARE(q, std::int64_t{131071});
        const auto reach = p.panel.chart()->reach();
        QCOMPARE(reach.size(), std::size_t{26});
        for (int k = 1; k <= 26; ++k)
            QCOMPARE(reach[static_cast<std::size_t>(k - 1)],
                     q - receptive_field_start(p.layers.layers(), k, q));
        for (int k = 1; k <= 5; ++k)
            QCOMPARE(reach[static_cast<std::size_t>(k - 1)], std::int64_t{1023} * k);
        QCOMPARE(reach[5], q);
    }

    void sessionKeepsTheSelectedLayer()
    {
        LayerParts p;
        QVERIFY(p.import.openConfig(config("gemma3_12b.json")));
        QVERIFY(p.layers.selectLayer(2));
        const Session saved = p.parts.sessions->currentSession();
        QVERIFY(saved.layers);
        QCOMPARE(saved.layers->selected, 2);
        const Session read = session_from_json(session_to_json(saved));
        QVERIFY(read.layers);
        QCOMPARE(*read.layers, *saved.layers);

        LayerParts other;
        QVERIFY(other.parts.sessions->applySession(read, QStringLiteral("test")));
        QCOMPARE(other.layers.layers(), p.layers.layers());
        QCOMPARE(other.layers.selected(), 2);
        QCOMPARE(other.parts.model->scenario(), p.parts.model->scenario());

        // A session without layers clears them.
        Session plain = read;
        plain.layers.reset();
        QVERIFY(other.parts.sessions->applySession(plain, QStringLiteral("test")));
        QVERIFY(other.layers.layers().empty());
        QVERIFY(!other.panel.emptyText().isEmpty());
    }

    void sessionRefusesALayerOutOfRange()
    {
        LayerParts p;
        QVERIFY(p.import.openConfig(config("gemma3_12b.json")));
        QByteArray bytes = session_to_json(p.parts.sessions->currentSession());
        bytes.replace("\"selected\": -1", "\"selected\": 26");
        try {
            session_from_json(bytes);
            QFAIL("a selected layer out of range was accepted");
        } catch (const SessionError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("layers.selected")), e.what());
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("[0, 25]")), e.what());
        }
    }

    // Mistral: a sliding window on every layer, one kind: the panel says so instead of a strip.
    void alikeLayersShowAText()
    {
        LayerParts p;
        QVERIFY(p.import.openConfig(config("mistral_7b_v0.1.json")));
        QVERIFY(!p.layers.layers().empty());
        QVERIFY2(p.panel.emptyText().contains(QStringLiteral("alike")), qPrintable(p.panel.emptyText()));
        QVERIFY(p.panel.emptyText().contains(QStringLiteral("sliding window of 4096 keys")));
        // A preset of a method without layers (GPT-2's learned table): the panel's empty state.
        QVERIFY(p.import.loadPreset(QStringLiteral("gpt2")));
        QVERIFY(p.layers.layers().empty());
        QVERIFY2(p.panel.emptyText().contains(QStringLiteral("config.json")),
                 qPrintable(p.panel.emptyText()));
    }
};

QTEST_MAIN(LayersControllerTest)
#include "test_layers_controller.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// A checkpoint's tensors as a method's tables (io/checkpoint_adoption.h): the one function the command
// line (--model, --weights) and the GUI (Open Model…, Open Weights…) call, following each table field's
// adoption rule. Checkpoints are written byte by byte from the safetensors spec (weights_fixtures.h) with
// the tensor names of Hugging Face GPT2Model (wpe), T5Stack (relative_attention_bias, buckets x heads) and
// DebertaV2Encoder (rel_embeddings, 2 att_span x hidden). Every comparison is exact (integers, or floats
// read exactly).
#include "io/checkpoint_adoption.h"
#include "methods/deberta/deberta.h"
#include "methods/learned/learned.h"
#include "methods/t5/t5_buckets.h"
#include "methods/table_files.h"
#include "scenario/validation.h"
#include "weights_fixtures.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace posatlas;
using namespace posatlas::test;
namespace fs = std::filesystem;

namespace {

constexpr const char* kT5Encoder = "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight";
constexpr const char* kT5Decoder = "decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight";
constexpr const char* kDeberta = "deberta.encoder.rel_embeddings.weight";

std::string write(const std::string& name, const std::string& bytes)
{
    const fs::path dir = fs::temp_directory_path() / ("posatlas_adoption_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path p = dir / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
}

std::vector<float> counting(std::int64_t n)
{
    std::vector<float> v;
    for (std::int64_t i = 0; i < n; ++i)
        v.push_back(static_cast<float>(i));
    return v;
}

// GPT-2-like: wpe 8 x 4, a word embedding, T5's tables 16 x 4 (encoder) and 16 x 4 (decoder), DeBERTa's
// rel_embeddings 8 x 6, an odd 7 x 6 matrix and a vector.
std::string checkpoint()
{
    return write("model.safetensors", safetensors_file({f32_tensor("wpe.weight", 8, 4, counting(32)),
                                                        f32_tensor("wte.weight", 5, 4, counting(20)),
                                                        f32_tensor(kT5Decoder, 16, 4, counting(64)),
                                                        f32_tensor(kT5Encoder, 16, 4, counting(64)),
                                                        f32_tensor(kDeberta, 8, 6, counting(48)),
                                                        f32_tensor("odd", 7, 6, counting(42)),
                                                        {"ids", "F32", {5}, std::string(20, '\0')}}));
}

TableTarget target(std::string_view id)
{
    const auto t = parse_table_target(id);
    EXPECT_TRUE(t) << id;
    return t.value_or(TableTarget{Method{}, ""});
}

// The message of the AdoptionError adopt_table throws, or "" when it throws none.
std::string refusal(const Scenario& s, const std::string& file, const std::string& tensor,
                    std::string_view id)
{
    try {
        adopt_table(s, file, tensor, target(id));
    } catch (const AdoptionError& e) {
        return e.what();
    }
    return {};
}

} // namespace

TEST(CheckpointAdoption, EveryTableFieldIsATargetThatRoundTripsItsId)
{
    const std::vector<TableTarget> targets = table_targets();
    ASSERT_FALSE(targets.empty());
    for (const TableTarget& t : targets) {
        EXPECT_EQ(parse_table_target(table_target_id(t)), t) << table_target_id(t);
        const Field& f = table_field(t);
        EXPECT_TRUE(f.table_shape || f.adopt_tensor) << f.key;
        // Its tensor is named by a field of the same method.
        EXPECT_NE(descriptor(t.method).field(f.tensor_key), nullptr) << f.key;
    }
    EXPECT_FALSE(parse_table_target("learned"));          // no field
    EXPECT_FALSE(parse_table_target("learned/seed"));     // a field, but no table
    EXPECT_FALSE(parse_table_target("nothing/anything")); // no method
}

TEST(CheckpointAdoption, KnownTensorsGoToTheirMethodsTableAnyOtherToTheLearnedTable)
{
    EXPECT_EQ(table_target_id(default_table_target("wpe.weight")), "learned/table_path");
    EXPECT_EQ(table_target_id(default_table_target("wte.weight")), "learned/table_path");
    EXPECT_EQ(table_target_id(default_table_target(kT5Decoder)), "t5/bias_weights");
    EXPECT_EQ(table_target_id(default_table_target(kDeberta)), "deberta/rel_embeddings");
}

TEST(CheckpointAdoption, ALearnedTableFeedsTheLearnedMethodAsItIs)
{
    const std::string file = checkpoint();
    const TableAdoption a = adopt_table(Scenario{}, file, "wpe.weight", target("learned/table_path"));
    EXPECT_EQ(a.scenario.method, LearnedParams::kMethod);
    EXPECT_EQ(a.field->key, "table_path");
    EXPECT_EQ(a.scenario.params<LearnedParams>().table_path, file);
    EXPECT_EQ(a.scenario.params<LearnedParams>().table_tensor, "wpe.weight");
    EXPECT_EQ(learned_shape(a.scenario.params<LearnedParams>()).trained_length, 8);
}

TEST(CheckpointAdoption, AT5BiasTableBringsItsBucketsHeadsAndDirection)
{
    const std::string file = checkpoint();
    const TableAdoption a = adopt_table(Scenario{}, file, kT5Decoder, target("t5/bias_weights"));
    const T5Params& p = a.scenario.params<T5Params>();
    EXPECT_EQ(a.scenario.method, T5Params::kMethod);
    EXPECT_EQ(p.bias_path, file);
    EXPECT_EQ(p.bias_tensor, kT5Decoder);
    EXPECT_EQ(p.num_buckets, 16);
    EXPECT_EQ(p.num_heads, 4);
    EXPECT_FALSE(p.bidirectional);           // the decoder's table: causal buckets
    EXPECT_EQ(t5_bias_table(p)(3, 2), 14.0); // row-major 16 x 4: entry (3, 2) = 3 * 4 + 2
}

TEST(CheckpointAdoption, DebertaRelativeEmbeddingsSetTheSpanTheirRowsFix)
{
    const std::string file = checkpoint();
    const TableAdoption a = adopt_table(Scenario{}, file, kDeberta, target("deberta/rel_embeddings"));
    const DebertaParams& p = a.scenario.params<DebertaParams>();
    EXPECT_EQ(a.scenario.method, DebertaParams::kMethod);
    EXPECT_EQ(p.rel_embeddings, file);
    EXPECT_EQ(p.rel_embeddings_tensor, kDeberta);
    EXPECT_EQ(p.position_buckets, 4); // 8 rows = 2 att_span
}

TEST(CheckpointAdoption, AWrongShapedTensorIsRefusedNamingTheTensorAndTheShapeNeeded)
{
    const std::string file = checkpoint();
    // 7 rows are no 2 att_span: the table cannot set the span, and DeBERTa's default needs 512 rows.
    const std::string message = refusal(Scenario{}, file, "odd", "deberta/rel_embeddings");
    EXPECT_NE(message.find("odd (7x6)"), std::string::npos) << message;
    EXPECT_NE(message.find(table_shape_text(deberta_rel_shape(DebertaParams{}))), std::string::npos)
        << message;
    EXPECT_NE(message.find("rel_embeddings"), std::string::npos) << message;
    // Not a matrix, not in the file.
    EXPECT_NE(refusal(Scenario{}, file, "ids", "learned/table_path").find("ids (F32, 5) is not a matrix"),
              std::string::npos);
    EXPECT_NE(refusal(Scenario{}, file, "absent", "learned/table_path").find("no tensor 'absent'"),
              std::string::npos);
}

TEST(CheckpointAdoption, AModelsCheckpointFillsTheTablesItsMethodKnowsUnlessGivenByHand)
{
    const std::string file = checkpoint();
    Scenario t5;
    t5.method = T5Params::kMethod;
    std::vector<std::string> notes = adopt_checkpoint(t5, file);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0], std::string("T5 bias table ") + kT5Encoder + " read from model.safetensors");
    EXPECT_EQ(t5.params<T5Params>().bias_tensor, kT5Encoder); // the encoder's table first
    EXPECT_TRUE(t5.params<T5Params>().bidirectional);
    EXPECT_EQ(t5.params<T5Params>().num_buckets, 16);

    Scenario deberta;
    deberta.method = DebertaParams::kMethod;
    notes = adopt_checkpoint(deberta, file);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(deberta.params<DebertaParams>().rel_embeddings_tensor, kDeberta);

    Scenario learned;
    learned.method = LearnedParams::kMethod;
    notes = adopt_checkpoint(learned, file);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(learned.params<LearnedParams>().table_path, file);

    // A table the user gave by hand is left as it is.
    Scenario given;
    given.method = T5Params::kMethod;
    EXPECT_TRUE(
        adopt_checkpoint(given, file, [](const Field& f) { return f.key == "bias_weights"; }).empty());
    EXPECT_TRUE(given.params<T5Params>().bias_path.empty());

    // A checkpoint without the method's table changes nothing; a method without checkpoint tables neither.
    const std::string bare =
        write("bare.safetensors", safetensors_file({f32_tensor("w", 2, 2, counting(4))}));
    Scenario seeded;
    seeded.method = T5Params::kMethod;
    EXPECT_TRUE(adopt_checkpoint(seeded, bare).empty());
    EXPECT_TRUE(seeded.params<T5Params>().bias_path.empty());
    Scenario rope;
    EXPECT_TRUE(adopt_checkpoint(rope, file).empty());
}

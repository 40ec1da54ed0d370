// SPDX-License-Identifier: GPL-3.0-or-later
// Models from the local Hugging Face cache on the command line: `posatlas models` and `--model ORG/NAME`,
// on a fake cache built by the test in huggingface_hub's layout (models--ORG--NAME/refs/main,
// blobs/ETAG, snapshots/COMMIT/FILE -> ../../blobs/ETAG), found through $HF_HUB_CACHE.
#include "cli_support.h"
#include "weights_fixtures.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using nlohmann::json;
using namespace posatlas::test;

void put(const fs::path& p, const std::string& bytes)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
}

void cached(const fs::path& model, const std::string& name, const std::string& bytes)
{
    put(model / "blobs" / ("etag-" + name), bytes);
    fs::create_directories(model / "snapshots" / "c0ffee");
    fs::create_symlink(fs::path("../../blobs") / ("etag-" + name), model / "snapshots" / "c0ffee" / name);
}

// A cache with a GPT-2-like model (config + checkpoint whose wpe rows are [p, 2p]) and a config-only llama.
fs::path fake_cache()
{
    const fs::path root = temp_dir() / "hf_cache";
    fs::remove_all(root);
    const fs::path gpt2 = root / "models--org--tiny-gpt2";
    cached(gpt2, "config.json", R"({"model_type":"gpt2","n_positions":4,"n_embd":2,"n_head":1})");
    std::vector<float> wpe;
    for (int p = 0; p < 4; ++p) {
        wpe.push_back(static_cast<float>(p));
        wpe.push_back(static_cast<float>(2 * p));
    }
    cached(gpt2, "model.safetensors", safetensors_file({f32_tensor("wpe.weight", 4, 2, wpe)}));
    put(gpt2 / "refs" / "main", "c0ffee");
    const fs::path llama = root / "models--org--llama";
    cached(llama, "config.json", slurp(fs::path(POSATLAS_TEST_DATA) / "configs" / "llama_tiny.json"));
    put(llama / "refs" / "main", "c0ffee");
    ::setenv("HF_HUB_CACHE", root.c_str(), 1);
    return root;
}

TEST(CliModels, ListsTheCacheAsTextAndJson)
{
    const fs::path root = fake_cache();
    const Result t = run({"models"});
    ASSERT_EQ(t.status, 0) << t.err;
    EXPECT_NE(t.out.find("# Hugging Face cache " + root.string() + " (from HF_HUB_CACHE)"), std::string::npos)
        << t.out;
    EXPECT_NE(t.out.find("org/tiny-gpt2  c0ffee  config.json, model.safetensors\n"), std::string::npos)
        << t.out;
    EXPECT_NE(t.out.find("org/llama  c0ffee  config.json\n"), std::string::npos) << t.out;
    const Result j = run({"models", "--format", "json"});
    ASSERT_EQ(j.status, 0) << j.err;
    const json m = json::parse(j.out);
    ASSERT_EQ(m["models"].size(), 2u);
    EXPECT_EQ(m["models"][1]["model"], "org/tiny-gpt2");
    EXPECT_EQ(m["models"][1]["refs"]["main"], "c0ffee");
    EXPECT_EQ(m["models"][1]["snapshots"][0]["safetensors"][0], "model.safetensors");
}

TEST(CliModels, ModelOpensTheCachedConfigAndWeightsLikeConfigAndWeights)
{
    const fs::path root = fake_cache();
    const Result r = run({"compute", "learned", "--model", "org/tiny-gpt2", "--from", "0", "--to", "3"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["tensor"], "wpe.weight"); // the known position tensor, picked without --tensor
    EXPECT_EQ(j["trained_length"], 4);
    for (int p = 0; p < 4; ++p)
        EXPECT_EQ(j["embedding"][p][1].get<double>(), 2.0 * p) << p;

    // The same numbers as --config and --weights on the snapshot's files.
    const fs::path snap = root / "models--org--tiny-gpt2" / "snapshots" / "c0ffee";
    const Result same = run({"compute", "learned", "--config", (snap / "config.json").string(), "--weights",
                             (snap / "model.safetensors").string(), "--from", "0", "--to", "3"});
    ASSERT_EQ(same.status, 0) << same.err;
    EXPECT_EQ(same.out, r.out);

    // A RoPE model's config: identical to --config on the cached file.
    const Result a = run({"compute", "rope-frequencies", "--model", "org/llama"});
    const Result b = run({"compute", "rope-frequencies", "--config",
                          (root / "models--org--llama" / "snapshots" / "c0ffee" / "config.json").string()});
    ASSERT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(a.out, b.out);
}

TEST(CliModels, ACachedT5ModelBringsItsTrainedBiasTable)
{
    const fs::path root = temp_dir() / "hf_cache_t5";
    fs::remove_all(root);
    const fs::path t5 = root / "models--org--tiny-t5";
    cached(
        t5, "config.json",
        R"({"model_type":"t5","num_heads":2,"d_model":8,"d_kv":4,"relative_attention_num_buckets":8,"relative_attention_max_distance":16})");
    // The encoder's layer-0 table, 8 buckets x 2 heads: (b, h) = 10 h + b.
    std::vector<float> bias;
    for (int b = 0; b < 8; ++b)
        for (int h = 0; h < 2; ++h)
            bias.push_back(static_cast<float>(10 * h + b));
    cached(t5, "model.safetensors",
           safetensors_file({f32_tensor(
               "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", 8, 2, bias)}));
    put(t5 / "refs" / "main", "c0ffee");
    ::setenv("HF_HUB_CACHE", root.c_str(), 1);
    // Query 0, key 1: relative +1, bidirectional bucket 4 + 1 = 5; head 1 reads 15.
    const Result r = run(
        {"compute", "matrix", "--model", "org/tiny-t5", "--kind", "bias", "--seq-len", "2", "--head", "1"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["matrix"][0][1].get<double>(), 15.0);
    EXPECT_EQ(j["matrix"][1][0].get<double>(), 11.0); // relative -1: bucket 1
    EXPECT_EQ(j["matrix"][0][0].get<double>(), 10.0); // relative 0: bucket 0
}

TEST(CliModels, ACachedDebertaModelBringsItsRelativeEmbeddings)
{
    const fs::path root = temp_dir() / "hf_cache_deberta";
    fs::remove_all(root);
    const fs::path model = root / "models--org--tiny-deberta";
    // position_buckets 2: att_span 2, 4 rows of hidden size 3 (entry (r, c) = r + c / 4).
    cached(
        model, "config.json",
        R"({"model_type":"deberta-v2","hidden_size":3,"num_attention_heads":1,"position_buckets":2,"max_relative_positions":8,"relative_attention":true})");
    std::vector<float> rel;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 3; ++c)
            rel.push_back(static_cast<float>(r) + static_cast<float>(c) / 4.0f);
    cached(model, "model.safetensors",
           safetensors_file({f32_tensor("deberta.encoder.rel_embeddings.weight", 4, 3, rel)}));
    put(model / "refs" / "main", "c0ffee");
    ::setenv("HF_HUB_CACHE", root.c_str(), 1);
    const Result r = run({"compute", "scenario", "--model", "org/tiny-deberta"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["deberta"]["rel_embeddings_tensor"].get<std::string>(),
              "deberta.encoder.rel_embeddings.weight")
        << r.out;
    EXPECT_NE(j["deberta"]["rel_embeddings"].get<std::string>().find("model.safetensors"), std::string::npos)
        << r.out;
    // A table given by hand wins over the cached one.
    const fs::path own = temp_dir() / "own_rel.csv";
    put(own, "1,2,3\n4,5,6\n7,8,9\n1,1,1\n");
    const Result mine =
        run({"compute", "scenario", "--model", "org/tiny-deberta", "--rel-embeddings", own.string()});
    ASSERT_EQ(mine.status, 0) << mine.err;
    EXPECT_EQ(json::parse(mine.out)["deberta"]["rel_embeddings"].get<std::string>(), own.string());
}

TEST(CliModels, UncachedOrMalformedModelsAreClearUsageErrors)
{
    fake_cache();
    const Result absent = run({"compute", "rope-frequencies", "--model", "org/absent"});
    EXPECT_EQ(absent.status, 2);
    EXPECT_TRUE(absent.out.empty());
    EXPECT_NE(absent.err.find("--model: model org/absent is not in the Hugging Face cache"),
              std::string::npos)
        << absent.err;
    EXPECT_NE(absent.err.find("posatlas download org/absent"), std::string::npos) << absent.err;

    const Result bad = run({"compute", "rope-frequencies", "--model", "../../etc"});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("is not a Hugging Face model name"), std::string::npos) << bad.err;

    const Result both =
        run({"compute", "rope-frequencies", "--model", "org/llama", "--preset", "llama-3-8b"});
    EXPECT_EQ(both.status, 2);
    EXPECT_NE(both.err.find("exclusive"), std::string::npos) << both.err;

    const Result dl = run({"download"});
    EXPECT_EQ(dl.status, 2);
    EXPECT_NE(dl.err.find("download takes one model"), std::string::npos) << dl.err;
}

// Real models' numbers on the command line, from their config.json (tests/data/configs, reduced copies).
// DeepSeek-V3's attention multiplies its softmax scale by yarn_get_mscale(40, mscale_all_dim 1)^2
// (transformers DeepseekV3Attention.__init__), beside the rotary attention factor get_mscale(40, 1) /
// get_mscale(40, 1) = 1
// (_compute_yarn_parameters); reference recomputed from the formula, tolerance 1e-14 relative.
TEST(CliModels, DeepSeekV3LogitMultiplierAndDynamicNtk)
{
    const std::string cfg = std::string(POSATLAS_TEST_DATA) + "/configs/deepseek_v3.json";
    const double m = 0.1 * std::log(40.0) + 1.0;
    const Result r = run({"compute", "rope-frequencies", "--config", cfg});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["attention_factor"].get<double>(), 1.0);
    EXPECT_NEAR(j["softmax_scale"].get<double>(), m * m, 1e-14 * m * m);
    EXPECT_NEAR(j["logit_multiplier"].get<double>(), m * m, 1e-14 * m * m);

    const Result off = run({"compute", "rope-frequencies", "--config", cfg, "--no-softmax-mscale"});
    ASSERT_EQ(off.status, 0) << off.err;
    EXPECT_EQ(json::parse(off.out)["logit_multiplier"].get<double>(), 1.0);

    // Dynamic NTK on this config reads its max_position_embeddings 163840 (HF
    // _compute_dynamic_ntk_parameters): the base stays 10000 at N = 163840, as the explorer's probe shows.
    const Result dyn = run({"compute", "rope-frequencies", "--config", cfg, "--rope-type", "dynamic",
                            "--rope-seq-len", "163840"});
    ASSERT_EQ(dyn.status, 0) << dyn.err;
    EXPECT_EQ(json::parse(dyn.out)["base"].get<double>(), 10000.0);

    // rope-pairs: DeepSeek's trained length is given; llama_tiny's (linear x2, no original length) is
    // assumed.
    const Result pairs = run({"compute", "rope-pairs", "--config", cfg});
    ASSERT_EQ(pairs.status, 0) << pairs.err;
    EXPECT_FALSE(json::parse(pairs.out)["trained_length_assumed"].get<bool>());
    const std::string tiny = std::string(POSATLAS_TEST_DATA) + "/configs/llama_tiny.json";
    const Result assumed = run({"compute", "rope-pairs", "--config", tiny});
    ASSERT_EQ(assumed.status, 0) << assumed.err;
    EXPECT_TRUE(json::parse(assumed.out)["trained_length_assumed"].get<bool>());
    const Result given =
        run({"compute", "rope-pairs", "--config", tiny, "--original-max-position-embeddings", "512"});
    ASSERT_EQ(given.status, 0) << given.err;
    EXPECT_FALSE(json::parse(given.out)["trained_length_assumed"].get<bool>());
    EXPECT_EQ(json::parse(given.out)["trained_length"].get<int>(), 512);

    // Asked for on a YaRN model without mscale_all_dim: refused with the reason.
    const Result bad =
        run({"compute", "rope-frequencies", "--preset", "yarn-llama-2-7b-64k", "--softmax-mscale"});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("--softmax-mscale"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("mscale_all_dim"), std::string::npos) << bad.err;
}

} // namespace

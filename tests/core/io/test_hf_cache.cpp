// SPDX-License-Identifier: GPL-3.0-or-later
// The local Hugging Face cache (core/io/hf_cache.h), on fake cache trees built by the test in the layout
// huggingface_hub's file_download.py writes: models--ORG--NAME/{refs/main, blobs/ETAG,
// snapshots/COMMIT/FILE -> ../../blobs/ETAG}. Environment resolution follows huggingface_hub/constants.py.
#include "io/hf_cache.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace posatlas;
namespace fs = std::filesystem;

namespace {

fs::path fresh_root(const std::string& name)
{
    const fs::path d =
        fs::temp_directory_path() / ("posatlas_hf_cache_tests_" + std::to_string(::getpid())) / name;
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

void write(const fs::path& p, const std::string& text)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

// A file in the snapshot the way huggingface_hub stores it: the bytes in blobs/, a relative symlink in
// the snapshot.
void cached_file(const fs::path& model, const std::string& commit, const std::string& name,
                 const std::string& text)
{
    const std::string etag = "etag-" + name;
    write(model / "blobs" / etag, text);
    fs::create_directories(model / "snapshots" / commit);
    fs::create_symlink(fs::path("../../blobs") / etag, model / "snapshots" / commit / name);
}

class EnvGuard
{
public:
    EnvGuard()
    {
        for (const char* n : kNames)
            if (const char* v = std::getenv(n))
                m_saved.emplace_back(n, v);
        for (const char* n : kNames)
            ::unsetenv(n);
    }
    ~EnvGuard()
    {
        for (const char* n : kNames)
            ::unsetenv(n);
        for (const auto& [n, v] : m_saved)
            ::setenv(n.c_str(), v.c_str(), 1);
    }

private:
    static constexpr const char* kNames[] = {"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME",
                                             "XDG_CACHE_HOME", "HOME"};
    std::vector<std::pair<std::string, std::string>> m_saved;
};

} // namespace

TEST(HfCache, RootFollowsTheHuggingFaceHubEnvironmentOrder)
{
    EnvGuard guard;
    ::setenv("HOME", "/home/someone", 1);
    EXPECT_EQ(hf_cache_root().path, fs::path("/home/someone/.cache/huggingface/hub"));
    EXPECT_EQ(hf_cache_root().source, "default");
    ::setenv("XDG_CACHE_HOME", "/xdg", 1);
    EXPECT_EQ(hf_cache_root().path, fs::path("/xdg/huggingface/hub"));
    ::setenv("HF_HOME", "~/hf", 1);
    EXPECT_EQ(hf_cache_root().path, fs::path("/home/someone/hf/hub"));
    EXPECT_EQ(hf_cache_root().source, "HF_HOME");
    ::setenv("HUGGINGFACE_HUB_CACHE", "/legacy", 1);
    EXPECT_EQ(hf_cache_root().path, fs::path("/legacy"));
    ::setenv("HF_HUB_CACHE", "/hub", 1);
    EXPECT_EQ(hf_cache_root().path, fs::path("/hub"));
    EXPECT_EQ(hf_cache_root().source, "HF_HUB_CACHE");
}

TEST(HfCache, ModelNamesAreParsedAndHostileOnesRefused)
{
    const HfModelRef a = parse_hf_model_ref("openai-community/gpt2");
    EXPECT_EQ(a.repo_id, "openai-community/gpt2");
    EXPECT_EQ(a.revision, "main");
    const HfModelRef b = parse_hf_model_ref("google-t5/t5-small@v1.0");
    EXPECT_EQ(b.repo_id, "google-t5/t5-small");
    EXPECT_EQ(b.revision, "v1.0");
    EXPECT_EQ(parse_hf_model_ref("org/name@refs/pr/1").revision, "refs/pr/1"); // a pull request's ref
    EXPECT_EQ(parse_hf_model_ref("gpt2").repo_id, "gpt2");                     // legacy single-name models
    EXPECT_EQ(hf_repo_folder("openai-community/gpt2"), "models--openai-community--gpt2");
    for (const char* bad : {"", "/gpt2", "org/", "a/b/c", "../etc", "org/na..me", "org/na--me", "org/name@",
                            "org/name@../x", "org/-name", "org/na me", "org/name@a/.", "org/name@a//b",
                            "org/name@.hidden", "org/name@x.lock", "org/name@/main", "org/name@main/"}) {
        try {
            parse_hf_model_ref(bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const HfCacheError& e) {
            EXPECT_NE(std::string(e.what()).find("model '"), std::string::npos) << e.what();
        }
    }
}

TEST(HfCache, ListsModelsRefsSnapshotsAndTheirFiles)
{
    const fs::path root = fresh_root("list");
    const fs::path gpt2 = root / "models--openai-community--gpt2";
    cached_file(gpt2, "aaa111", "config.json", R"({"model_type":"gpt2"})");
    cached_file(gpt2, "aaa111", "model.safetensors", "x");
    write(gpt2 / "refs" / "main", "aaa111");
    const fs::path t5 = root / "models--google-t5--t5-small";
    cached_file(t5, "bbb222", "config.json", "{}");
    cached_file(t5, "bbb222", std::string(kPartialWeightsFile), "x");
    write(t5 / "refs" / "main", "bbb222\n");
    write(root / "datasets--someone--data" / "refs" / "main", "ccc"); // not a model: skipped
    write(root / "version.txt", "1");

    const auto models = list_hf_cache(root);
    ASSERT_EQ(models.size(), 2u);
    EXPECT_EQ(models[0].repo_id, "google-t5/t5-small");
    EXPECT_EQ(models[1].repo_id, "openai-community/gpt2");
    EXPECT_EQ(models[0].refs.at("main"), "bbb222");
    ASSERT_EQ(models[1].snapshots.size(), 1u);
    const HfSnapshot& s = models[1].snapshots[0];
    EXPECT_EQ(s.commit, "aaa111");
    EXPECT_TRUE(s.has_config);
    EXPECT_FALSE(s.has_index);
    ASSERT_EQ(s.safetensors.size(), 1u);
    EXPECT_EQ(s.safetensors[0], "model.safetensors");
    EXPECT_TRUE(models[0].snapshots.at(0).has_positions);
    EXPECT_TRUE(models[0].snapshots.at(0).safetensors.empty()); // the partial file is not the model's weights

    EXPECT_TRUE(list_hf_cache(root / "missing").empty());
}

TEST(HfCache, ResolvesRevisionsConfigAndWeights)
{
    const fs::path root = fresh_root("resolve");
    const fs::path m = root / "models--org--sharded";
    cached_file(m, "c1", "config.json", "{}");
    cached_file(
        m, "c1", "model.safetensors.index.json",
        R"({"weight_map":{"a":"model-00001-of-00002.safetensors","b":"model-00002-of-00002.safetensors"}})");
    cached_file(m, "c1", "model-00001-of-00002.safetensors", "x");
    write(m / "refs" / "main", "c1");

    // One shard missing: the index is not offered; the single shard present is.
    HfResolvedModel r = resolve_hf_model(root, parse_hf_model_ref("org/sharded"));
    EXPECT_EQ(r.commit, "c1");
    EXPECT_EQ(r.config, m / "snapshots" / "c1" / "config.json");
    EXPECT_EQ(r.weights, m / "snapshots" / "c1" / "model-00001-of-00002.safetensors");
    cached_file(m, "c1", "model-00002-of-00002.safetensors", "x");
    r = resolve_hf_model(root, parse_hf_model_ref("org/sharded"));
    EXPECT_EQ(r.weights, m / "snapshots" / "c1" / "model.safetensors.index.json");

    // A commit hash names the snapshot directly; a config-only snapshot has no weights.
    cached_file(m, "c0", "config.json", "{}");
    r = resolve_hf_model(root, parse_hf_model_ref("org/sharded@c0"));
    EXPECT_EQ(r.commit, "c0");
    EXPECT_TRUE(r.weights.empty());
}

TEST(HfCache, MissingModelRevisionOrConfigSaysHowToDownload)
{
    const fs::path root = fresh_root("missing");
    const fs::path m = root / "models--org--noconfig";
    cached_file(m, "c1", "model.safetensors", "x");
    write(m / "refs" / "main", "c1");
    const auto message = [&](const std::string& ref) {
        try {
            resolve_hf_model(root, parse_hf_model_ref(ref));
        } catch (const HfCacheError& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    const std::string absent = message("org/absent");
    EXPECT_NE(absent.find("model org/absent is not in the Hugging Face cache"), std::string::npos) << absent;
    EXPECT_NE(absent.find("posatlas download org/absent"), std::string::npos) << absent;
    const std::string rev = message("org/noconfig@v2");
    EXPECT_NE(rev.find("revision 'v2' is not in the cache"), std::string::npos) << rev;
    EXPECT_NE(rev.find("posatlas download org/noconfig@v2"), std::string::npos) << rev;
    const std::string config = message("org/noconfig");
    EXPECT_NE(config.find("has no config.json"), std::string::npos) << config;
}

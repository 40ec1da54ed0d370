// SPDX-License-Identifier: GPL-3.0-or-later
// lab eval's fine-tune at a longer length with the test-time scaling active (Chen et al. 2023, position
// interpolation; Peng et al. 2023, YaRN): it lowers the loss at its length, leaves the run folder as it
// was, gives the same numbers for the same seed and threads, saves a run folder that evaluates as the
// fine-tuned model did, and refuses lengths it cannot train.
#include "lab_fixtures.h"

#include "lab/lab.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

namespace posatlas::lab {
namespace {

// A small RoPE run that learns copy at length 8 (300 steps, about a second), fine-tuned for 40 steps at 16
// with PI (linear, factor 2) and the default learning rate.
struct FineTuneRun {
    std::string dir;
    EvalOptions plain, tuned;

    FineTuneRun()
    {
        dir = testing::fresh_dir("finetune");
        LabConfig c = testing::tiny("rope", 300);
        c.d_model = 32;
        c.alphabet = 4;
        c.train_len = 8;
        c.batch = 16;
        c.warmup = 10;
        c.checkpoint_every = 300;
        train_run(c, dir, "test");
        plain.lengths = {16};
        plain.sequences = 64;
        plain.scaling.rope_type = RopeType::Linear;
        plain.scaling.factor = 2;
        tuned = plain;
        tuned.finetune.steps = 40;
        tuned.finetune.length = 16;
    }
    ~FineTuneRun() { std::filesystem::remove_all(dir); }
};

std::map<std::string, std::string> folder_bytes(const std::string& dir)
{
    std::map<std::string, std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        files[e.path().filename().string()] = testing::file_bytes(e.path().string());
    return files;
}

TEST(LabFineTune, LowersTheLossAtItsLengthAndLeavesTheRunFolderAsItWas)
{
    const FineTuneRun r;
    const auto before = folder_bytes(r.dir);
    const std::vector<EvalRow> plain = evaluate_run(r.dir, r.plain);
    double finetune_loss = -1;
    const std::vector<EvalRow> tuned = evaluate_run(r.dir, r.tuned, {}, &finetune_loss);
    ASSERT_EQ(plain.size(), 1u);
    ASSERT_EQ(tuned.size(), 1u);
    // Seeded, so a fixed margin (the test sequences are not the fine-tune's): measured 19 % lower with
    // these settings (answer loss 0.826 -> 0.670 at length 16); at least 5 % asked.
    EXPECT_LT(tuned[0].loss, 0.95 * plain[0].loss) << "plain " << plain[0].loss << " tuned " << tuned[0].loss;
    EXPECT_GT(finetune_loss, 0.0);
    EXPECT_EQ(folder_bytes(r.dir), before); // byte for byte, no file added or removed
    // The run folder still evaluates as before the fine-tune.
    const std::vector<EvalRow> again = evaluate_run(r.dir, r.plain);
    EXPECT_EQ(again[0].loss, plain[0].loss);
}

TEST(LabFineTune, SameSeedAndThreadsGiveIdenticalResultsAndASavedRunThatEvaluatesTheSame)
{
    FineTuneRun r;
    const std::string out_a = testing::fresh_dir("finetune-out-a"),
                      out_b = testing::fresh_dir("finetune-out-b");
    r.tuned.finetune.out = out_a;
    r.tuned.finetune.command = "posatlas lab eval run --finetune-steps 40";
    const std::vector<EvalRow> a = evaluate_run(r.dir, r.tuned);
    r.tuned.finetune.out = out_b;
    const std::vector<EvalRow> b = evaluate_run(r.dir, r.tuned);
    EXPECT_EQ(a[0].loss, b[0].loss);
    EXPECT_EQ(a[0].accuracy, b[0].accuracy);
    EXPECT_EQ(testing::file_bytes(out_a + "/model.safetensors"),
              testing::file_bytes(out_b + "/model.safetensors"));
    EXPECT_EQ(testing::file_bytes(out_a + "/metrics.jsonl"), testing::file_bytes(out_b + "/metrics.jsonl"));
    // The saved run: complete, its config.json records the fine-tune and the scaling, and evaluated with
    // that scaling (no fine-tune) it gives the fine-tuned model's numbers exactly.
    const RunInfo info = read_run_config(out_a);
    EXPECT_EQ(info.status, "complete");
    EXPECT_EQ(info.config.train_len, 8); // the trained length the scaling is relative to
    const nlohmann::json config = nlohmann::json::parse(testing::file_bytes(out_a + "/config.json"));
    EXPECT_EQ(config["finetune"]["steps"], 40);
    EXPECT_EQ(config["finetune"]["length"], 16);
    EXPECT_EQ(config["finetune"]["scaling"]["rope_type"], "linear");
    EXPECT_EQ(config["finetune"]["scaling"]["factor"], 2.0);
    EXPECT_EQ(testing::file_bytes(out_a + "/command.txt"), "posatlas lab eval run --finetune-steps 40\n");
    const std::vector<EvalRow> saved = evaluate_run(out_a, r.plain);
    EXPECT_EQ(saved[0].loss, a[0].loss);
    // An existing run folder is never the output.
    r.tuned.finetune.out = out_a;
    EXPECT_THROW(evaluate_run(r.dir, r.tuned), LabRunError);
    std::filesystem::remove_all(out_a);
    std::filesystem::remove_all(out_b);
}

TEST(LabFineTuneCheck, RefusesLengthsItCannotTrainNamingFinetuneLen)
{
    const LabConfig c; // batch 32, d_model 64
    FineTune f;
    f.steps = 10;
    f.length = 60000;
    try {
        check_finetune(c, f);
        FAIL() << "accepted";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "finetune-len");
        ASSERT_EQ(e.allowed().rfind("at most ", 0), 0u) << e.allowed();
        FineTune fits = f;
        fits.length = std::stoll(e.allowed().substr(8));
        EXPECT_NO_THROW(check_finetune(c, fits));
        fits.length += 1;
        EXPECT_THROW(check_finetune(c, fits), ParameterError);
    }
    for (const std::int64_t bad : {std::int64_t{0}, std::int64_t{3}, std::int64_t{70000}}) {
        f.length = bad;
        EXPECT_THROW(check_finetune(c, f), ParameterError) << bad;
    }
    LabConfig learned = c;
    learned.method = "learned"; // 32 rows
    f.length = 33;
    try {
        check_finetune(learned, f);
        FAIL() << "accepted";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "finetune-len");
        EXPECT_EQ(e.allowed().rfind("at most 32", 0), 0u) << e.allowed();
    }
    f.length = 64;
    f.lr = 5.0;
    try {
        check_finetune(c, f);
        FAIL() << "accepted";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "finetune-lr");
    }
    f.steps = 0; // no fine-tune: nothing to check
    EXPECT_NO_THROW(check_finetune(c, f));
    // The default learning rate: the run's peak scaled by the PI paper's ratio.
    EXPECT_DOUBLE_EQ(finetune_lr(c, FineTune{}), c.lr / 15.0);
}

} // namespace
} // namespace posatlas::lab

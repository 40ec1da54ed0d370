// SPDX-License-Identifier: GPL-3.0-or-later
// The lab's tasks, gradients, training, evaluation and checkpoints.
#include "lab_fixtures.h"

#include "analysis/attention_entropy.h"

#include "io/safe_write.h"
#include "lab/lab.h"

#include <gtest/gtest.h>

#include <csignal>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <set>

namespace posatlas::lab {
namespace {

TEST(LabTasks, CopyIsAStringASeparatorAndTheStringAgainWithOnlyTheSecondCopyAnswered)
{
    const TaskBatch b = make_batch("copy", 16, 8, 2, 7, 0);
    for (int s = 0; s < 2; ++s) {
        const std::int64_t* in = &b.input[s * 8];
        // 9 tokens: x0..x3 SEP x0..x3; the model reads the first 8.
        EXPECT_EQ(in[4], kSep);
        for (int i = 0; i < 4; ++i) {
            EXPECT_GE(in[i], kFirstLetter);
            EXPECT_EQ(b.target[s * 8 + 4 + i], in[i]); // after SEP comes the string again
        }
        for (int t = 0; t < 8; ++t)
            EXPECT_EQ(b.answer[s * 8 + t], t >= 4 ? 1 : 0) << t;
    }
    // Seeded: the same (seed, index) gives the same batch, another index another.
    EXPECT_EQ(make_batch("copy", 16, 8, 2, 7, 0).input, b.input);
    EXPECT_NE(make_batch("copy", 16, 8, 2, 7, 1).input, b.input);
}

TEST(LabTasks, TrainingCopiesStringsOfEveryLengthSoNoFixedOffsetSolvesThem)
{
    const TaskBatch b = make_batch("copy", 16, 32, 64, 3, 0, true);
    std::set<std::int64_t> separators;
    for (int s = 0; s < 64; ++s) {
        int answers = 0;
        for (std::int64_t t = 0; t < 32; ++t) {
            if (b.input[s * 32 + t] == kSep) {
                separators.insert(t);
                EXPECT_EQ(answers, 0); // nothing is answered before the separator
            }
            answers += b.answer[s * 32 + t];
        }
        // Padding, n letters, the separator, n letters (33 tokens, the model reads 32): n answers, the
        // separator at 32 - n.
        EXPECT_GE(answers, 1);
        EXPECT_LE(answers, 16);
        EXPECT_EQ(b.input[s * 32 + 32 - answers], kSep);
    }
    EXPECT_GT(separators.size(), 8u);
}

TEST(LabTasks, RecallAnswersAreTheValuesOfKeysSeenBefore)
{
    const TaskBatch b = make_batch("recall", 8, 31, 4, 3, 0);
    for (int s = 0; s < 4; ++s)
        for (std::int64_t t = 0; t < 31; ++t)
            if (b.answer[s * 31 + t]) {
                const std::int64_t key = b.input[s * 31 + t];
                bool found = false;
                for (std::int64_t u = 0; u + 1 < t && !found; ++u)
                    found = b.input[s * 31 + u] == key && b.input[s * 31 + u + 1] == b.target[s * 31 + t];
                EXPECT_TRUE(found) << "sequence " << s << " position " << t;
            }
}

TEST(LabTasks, EveryLengthAllowedHasAnswers)
{
    const Corpus corpus = load_corpus(default_corpus()); // lm's
    for (const std::string& task : lab_tasks())
        for (std::int64_t length = 4; length < 40; ++length) {
            LabConfig c;
            c.task = task;
            c.alphabet = 4;
            if (task == "recall" && length < 8) {
                EXPECT_THROW(task_batch(c, &corpus, length, 2, 0, 0), ParameterError);
                continue;
            }
            for (const bool training : {false, true}) {
                const TaskBatch b = task_batch(c, &corpus, length, 8, 0, 0, training);
                int answers = 0;
                for (std::uint8_t a : b.answer)
                    answers += a;
                EXPECT_GE(answers, 8) << task << " at length " << length; // at least one per sequence
            }
        }
}

TEST(LabTasks, InductionAnswersTheLetterAfterTheEarlierTrigger)
{
    const TaskBatch b = make_batch("induction", 16, 20, 4, 5, 0);
    for (int s = 0; s < 4; ++s) {
        EXPECT_EQ(b.input[s * 20 + 19], kTrigger);
        EXPECT_EQ(b.answer[s * 20 + 19], 1);
        int answers = 0;
        for (int t = 0; t < 20; ++t)
            answers += b.answer[s * 20 + t];
        EXPECT_EQ(answers, 1);
    }
}

// Autograd against central differences (double, h = 1e-6) through a whole one-layer model with each
// encoding: tolerance 1e-6 relative (the difference quotient's error is O(h^2) plus rounding ~1e-10).
class LabGradient : public ::testing::TestWithParam<std::string>
{
};
TEST_P(LabGradient, AutogradMatchesFiniteDifferences)
{
    EXPECT_LT(attention_gradient_check(GetParam()), 1e-6);
}
INSTANTIATE_TEST_SUITE_P(Lab, LabGradient, ::testing::ValuesIn(lab_methods()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                             std::string name = i.param; // transformer-xl: a test name has no '-'
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });

TEST(LabTraining, CopyAtLengthEightIsLearnedWithinAFewHundredSteps)
{
    LabConfig c;
    c.task = "copy";
    c.method = "rope";
    c.train_len = 8;
    c.steps = 300;
    c.warmup = 30;
    c.log_every = 100;
    c.checkpoint_every = 300;
    const std::string dir = testing::fresh_dir("copy8");
    const auto t0 = std::chrono::steady_clock::now();
    const TrainSummary s = train_run(c, dir, "test");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(s.complete);
    EvalOptions o;
    o.lengths = {8};
    o.sequences = 512;
    const std::vector<EvalRow> rows = evaluate_run(dir, o);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_GE(rows[0].accuracy, 0.99) << "loss " << rows[0].loss;
    // The time is recorded (ctest's XML, --gtest_output), not asserted: the machines are shared, and speed
    // is the benchmarks' business (docs/benchmarks.md, "Lab").
    ::testing::Test::RecordProperty("seconds", std::to_string(seconds));
    std::filesystem::remove_all(dir);
}

TEST(LabTraining, SameSeedAndThreadsGiveIdenticalMetrics)
{
    const LabConfig c = testing::tiny("alibi", 30);
    const std::string a = testing::fresh_dir("det-a"), b = testing::fresh_dir("det-b");
    train_run(c, a, "test");
    train_run(c, b, "test");
    EXPECT_EQ(testing::file_bytes(a + "/metrics.jsonl"), testing::file_bytes(b + "/metrics.jsonl"));
    EXPECT_EQ(testing::file_bytes(a + "/model.safetensors"), testing::file_bytes(b + "/model.safetensors"));
    std::filesystem::remove_all(a);
    std::filesystem::remove_all(b);
}

TEST(LabTraining, RunFolderHoldsConfigMetricsCommandAndWeights)
{
    const std::string dir = testing::fresh_dir("folder");
    train_run(testing::tiny("rope", 20), dir, "posatlas lab train --method rope");
    const RunInfo info = read_run_config(dir);
    EXPECT_EQ(info.status, "complete");
    EXPECT_EQ(info.steps_done, 20);
    EXPECT_EQ(info.config.method, "rope");
    EXPECT_EQ(testing::file_bytes(dir + "/command.txt"), "posatlas lab train --method rope\n");
    const std::string metrics = testing::file_bytes(dir + "/metrics.jsonl");
    EXPECT_EQ(std::count(metrics.begin(), metrics.end(), '\n'), 4); // log_every 5
    const std::string config = testing::file_bytes(dir + "/config.json");
    for (const char* key : {"\"pre-LayerNorm\"", "\"rope_theta\"", "\"pairing\"", "\"partial_rotary_factor\"",
                            "\"AdamW\"", "\"train_len\""})
        EXPECT_NE(config.find(key), std::string::npos) << key;
    // An existing run is not overwritten.
    EXPECT_THROW(train_run(testing::tiny("rope", 20), dir, "again"), LabRunError);
    std::filesystem::remove_all(dir);
}

TEST(LabTraining, CheckpointRoundTripGivesTheSameEvaluation)
{
    const std::string dir = testing::fresh_dir("roundtrip");
    train_run(testing::tiny("t5", 20), dir, "test");
    EvalOptions o;
    o.lengths = {12, 24};
    o.sequences = 16;
    const std::vector<EvalRow> a = evaluate_run(dir, o), b = evaluate_run(dir, o);
    ASSERT_EQ(a.size(), 2u);
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].accuracy, b[i].accuracy);
        EXPECT_EQ(a[i].loss, b[i].loss);
        EXPECT_TRUE(std::isfinite(a[i].loss));
    }
    std::filesystem::remove_all(dir);
}

// The evaluation's attention entropy (per layer, the mean over heads, query positions and sequences) is
// core's softmax_entropy (analysis/attention_entropy.h) of the model's scores: one test sequence, the
// scores of each layer from probe_attention on the same tokens (make_batch with the evaluation's seed +
// length, batch index 0), each causal row's entropy in double. Tolerance 1e-5 relative: the model's
// softmax and p ln p are float32 (observed differences are float32 rounding, about 1e-7), the reference
// is double from the model's float32 scores. Past the trained length too, under YaRN at test time.
TEST(LabTraining, AttentionEntropyIsCoresSoftmaxEntropyOfTheModelsScores)
{
    const std::string dir = testing::fresh_dir("entropy");
    LabConfig c = testing::tiny("rope", 20);
    c.layers = 2;
    ASSERT_TRUE(train_run(c, dir, "test").complete);
    EvalOptions o;
    o.lengths = {12, 30};
    o.sequences = 1;
    o.scaling.rope_type = RopeType::Yarn;
    o.scaling.factor = 2.5;
    const std::vector<EvalRow> rows = evaluate_run(dir, o);
    ASSERT_EQ(rows.size(), 2u);
    for (const EvalRow& row : rows) {
        const std::int64_t L = row.length;
        ASSERT_EQ(row.attention_entropy.size(), 2u);
        const TaskBatch b = make_batch(c.task, c.alphabet, L, 1, o.seed + static_cast<std::uint64_t>(L), 0);
        for (int layer = 0; layer < c.layers; ++layer) {
            const std::vector<HeadProbe> heads = probe_attention(dir, b.input, layer, o.scaling);
            double sum = 0.0;
            for (const HeadProbe& h : heads)
                for (std::int64_t i = 0; i < L; ++i) {
                    std::vector<double> logits;
                    for (std::int64_t j = 0; j <= i; ++j)
                        logits.push_back(h.scores(i, j));
                    sum += softmax_entropy(logits);
                }
            const double reference = sum / (static_cast<double>(heads.size()) * static_cast<double>(L));
            EXPECT_NEAR(row.attention_entropy[static_cast<std::size_t>(layer)], reference, 1e-5 * reference)
                << "length " << L << ", layer " << layer;
            // Never above uniform attention over the visible keys: the mean of ln(i + 1), ln(L!) / L.
            EXPECT_LE(reference, std::lgamma(static_cast<double>(L) + 1.0) / static_cast<double>(L) + 1e-12);
        }
    }
    std::filesystem::remove_all(dir);
}

TEST(LabTraining, CancelKeepsTheLastCheckpointAndSaysSo)
{
    const std::string dir = testing::fresh_dir("cancel");
    LabConfig c = testing::tiny("rope", 40);
    std::atomic<int> polls{0};
    TrainHooks hooks;
    hooks.cancel = [&] { return ++polls > 25; }; // stops after step 25; checkpoints every 10
    const TrainSummary s = train_run(c, dir, "test", hooks);
    EXPECT_FALSE(s.complete);
    EXPECT_EQ(s.steps_done, 20);
    const RunInfo info = read_run_config(dir);
    EXPECT_EQ(info.status, "cancelled");
    EXPECT_EQ(info.steps_done, 20);
    EvalOptions o;
    o.lengths = {12};
    o.sequences = 8;
    EXPECT_EQ(evaluate_run(dir, o).size(), 1u); // the checkpoint is usable
    std::filesystem::remove_all(dir);
}

// A full disk, stood in for by a file size limit (RLIMIT_FSIZE: writes past it fail with EFBIG, as they do
// with ENOSPC): config.json (about 1 kB) is written, the weights are not; the run is never called complete
// and has no checkpoint to evaluate.
TEST(LabTraining, RunThatCannotWriteItsWeightsIsNotComplete)
{
    const std::string dir = testing::fresh_dir("full");
    rlimit old{};
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
    const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit small = old;
    small.rlim_cur = 4096;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
    bool refused = false;
    try {
        train_run(testing::tiny("rope", 20), dir, "test");
    } catch (const OutputFileError&) {
        refused = true;
    }
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, old_handler);
    EXPECT_TRUE(refused);
    const RunInfo info = read_run_config(dir);
    EXPECT_NE(info.status, "complete");
    EXPECT_EQ(info.steps_done, 0);
    EXPECT_FALSE(std::filesystem::exists(dir + "/model.safetensors"));
    EvalOptions o;
    o.lengths = {12};
    EXPECT_THROW(evaluate_run(dir, o), LabRunError);
    std::filesystem::remove_all(dir);
}

TEST(LabTraining, LearnedTablePastItsRowsIsNotDefined)
{
    const std::string dir = testing::fresh_dir("learned");
    train_run(testing::tiny("learned", 10), dir, "test");
    EvalOptions o;
    o.lengths = {12, 13, 64};
    o.sequences = 8;
    const std::vector<EvalRow> rows = evaluate_run(dir, o);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_TRUE(rows[0].defined);
    EXPECT_FALSE(rows[1].defined);
    EXPECT_FALSE(rows[2].defined);
    std::filesystem::remove_all(dir);
}

TEST(LabConfigCheck, BeyondTheMemoryBudgetIsRefusedNamingTrainLenAndItsLargestValue)
{
    LabConfig c;
    c.train_len = 60000;
    try {
        validate(c);
        FAIL() << "accepted";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "train-len");
        EXPECT_EQ(e.allowed().rfind("at most ", 0), 0u) << e.allowed();
        LabConfig fits = c;
        fits.train_len = std::stoll(e.allowed().substr(8));
        EXPECT_NO_THROW(validate(fits));
        fits.train_len += 1;
        EXPECT_THROW(validate(fits), ParameterError);
    }
    c = LabConfig{};
    c.heads = 3;
    EXPECT_THROW(validate(c), ParameterError); // 64 is not divisible by 3
}

} // namespace
} // namespace posatlas::lab

// SPDX-License-Identifier: GPL-3.0-or-later
// The lm task: the built-in course read as characters, the held-out split, seeded windows, the refusals
// (vocabulary, corpus), perplexity against a hand computation, and a short training that beats the
// corpus's unigram model.
#include "lab/lab_model_torch.h"
#include "lab/lab_sweep.h"
#include "lab_fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

namespace posatlas::lab {
namespace {

using testing::fresh_dir;
using testing::put_bytes;

// A small model on the lm task, its corpus given.
LabConfig lm_config(const std::string& corpus, int steps)
{
    LabConfig c = testing::tiny("rope", steps);
    c.task = "lm";
    c.corpus = corpus;
    return c;
}

// Two files whose held-out tenths use letters the training text never has: "a" x 90 then "z" x 10, and
// "b" x 45 then "y" x 5, with a README.md and a picture that are not part of the text.
std::string marked_corpus()
{
    const std::string dir = fresh_dir("marked-corpus");
    std::filesystem::create_directories(dir + "/sub");
    put_bytes(dir + "/one.txt", std::string(90, 'a') + std::string(10, 'z'));
    put_bytes(dir + "/sub/two.md", std::string(45, 'b') + std::string(5, 'y'));
    put_bytes(dir + "/README.md", "q");
    put_bytes(dir + "/picture.png", "Q");
    return dir;
}

TEST(LabLanguageModel, TheDefaultCorpusIsTheCourseInBothLanguagesWithASortedVocabulary)
{
    const std::string path = default_corpus();
    ASSERT_FALSE(path.empty());
    const Corpus c = load_corpus(path);
    ASSERT_FALSE(c.id.files.empty());
    EXPECT_EQ(c.id.files.front().rfind("en/", 0), 0u) << c.id.files.front();
    EXPECT_EQ(c.id.files.back().rfind("zh_CN/", 0), 0u) << c.id.files.back();
    EXPECT_TRUE(std::none_of(c.id.files.begin(), c.id.files.end(),
                             [](const std::string& f) { return f.find("README") != std::string::npos; }));
    EXPECT_TRUE(std::is_sorted(c.id.files.begin(), c.id.files.end()));
    EXPECT_TRUE(std::adjacent_find(c.characters.begin(), c.characters.end(), std::greater_equal<>()) ==
                c.characters.end()); // strictly increasing
    EXPECT_EQ(c.id.vocabulary, static_cast<int>(c.characters.size()) + 1);
    EXPECT_GT(c.token(U'位'), 0); // "位置" is in every Chinese lesson
    EXPECT_EQ(c.characters[static_cast<std::size_t>(c.token(U'e') - 1)], U'e');
    EXPECT_EQ(c.token(U'\U0001F600'), 0); // not in the course: unknown
    EXPECT_EQ(static_cast<std::int64_t>(c.training.size() + c.held_out.size()), c.id.characters);
    EXPECT_EQ(c.id.hash.size(), 16u);
    EXPECT_TRUE(load_corpus(path).id == c.id); // read twice, the same identity
}

TEST(LabLanguageModel, EachFilesLastTenthIsHeldOutAndNeverInATrainingWindow)
{
    const Corpus c = load_corpus(marked_corpus());
    EXPECT_EQ(c.id.files, (std::vector<std::string>{"one.txt", "sub/two.md"}));
    ASSERT_EQ(c.characters, (std::vector<char32_t>{U'a', U'b', U'y', U'z'}));
    EXPECT_EQ(c.training.size(), 135u); // 90 + 45
    EXPECT_EQ(c.held_out.size(), 15u);  // 10 + 5
    const std::int64_t a = c.token(U'a'), b = c.token(U'b'), y = c.token(U'y'), z = c.token(U'z');
    for (std::uint64_t index = 0; index < 50; ++index) {
        const TaskBatch t = make_lm_batch(c, 8, 16, 7, index, true);
        for (std::size_t i = 0; i < t.input.size(); ++i) {
            EXPECT_TRUE(t.input[i] == a || t.input[i] == b);
            EXPECT_TRUE(t.target[i] == a || t.target[i] == b);
            EXPECT_EQ(t.answer[i], 1);
        }
        const TaskBatch e = make_lm_batch(c, 8, 16, 7, index, false);
        for (std::size_t i = 0; i < e.input.size(); ++i) {
            EXPECT_TRUE(e.input[i] == y || e.input[i] == z);
            EXPECT_TRUE(e.target[i] == y || e.target[i] == z);
        }
    }
    // A window is length + 1 characters of one text: 14 is the longest held-out input.
    EXPECT_NO_THROW(make_lm_batch(c, 14, 1, 0, 0, false));
    try {
        make_lm_batch(c, 15, 1, 0, 0, false);
        ADD_FAILURE() << "a window longer than the held-out text";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "lengths");
        EXPECT_NE(e.allowed().find("at most 14"), std::string::npos) << e.allowed();
    }
}

TEST(LabLanguageModel, WindowsFollowTheSeedAndTheTextsCharacters)
{
    const Corpus c = load_corpus(default_corpus());
    const TaskBatch one = make_lm_batch(c, 32, 4, 3, 11, true), two = make_lm_batch(c, 32, 4, 3, 11, true);
    EXPECT_EQ(one.input, two.input);
    EXPECT_EQ(one.target, two.target);
    EXPECT_NE(make_lm_batch(c, 32, 4, 3, 12, true).input, one.input);
    EXPECT_NE(make_lm_batch(c, 32, 4, 4, 11, true).input, one.input);
    // Each window is a stretch of the training text, its targets the inputs shifted by one.
    for (int s = 0; s < one.batch; ++s) {
        std::vector<std::int64_t> window(one.input.begin() + s * 32, one.input.begin() + (s + 1) * 32);
        window.push_back(one.target[static_cast<std::size_t>(s * 32 + 31)]);
        EXPECT_NE(std::search(c.training.begin(), c.training.end(), window.begin(), window.end()),
                  c.training.end());
        for (int t = 0; t + 1 < 32; ++t)
            EXPECT_EQ(one.target[static_cast<std::size_t>(s * 32 + t)],
                      one.input[static_cast<std::size_t>(s * 32 + t + 1)]);
    }
}

TEST(LabLanguageModel, AVocabularySmallerThanTheCorpusIsRefusedNamingVocabAndTheValueItNeeds)
{
    const Corpus corpus = load_corpus(default_corpus());
    LabConfig c = lm_config(default_corpus(), 1);
    c.vocab_size = 100;
    try {
        fit_corpus(c, corpus);
        ADD_FAILURE() << "a vocabulary of 100 for " << corpus.id.vocabulary << " ids";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "vocab");
        EXPECT_NE(e.allowed().find("at least " + std::to_string(corpus.id.vocabulary)), std::string::npos)
            << e.allowed();
    }
    c.vocab_size = 0; // the corpus's own
    fit_corpus(c, corpus);
    EXPECT_EQ(c.vocab_size, corpus.id.vocabulary);
    EXPECT_EQ(c.vocab(), corpus.id.vocabulary);
    LabConfig copy = testing::tiny("rope");
    copy.vocab_size = 40;
    EXPECT_THROW(validate(copy), ParameterError); // --vocab belongs to lm
}

TEST(LabLanguageModel, AMissingEmptyOrNonUtf8CorpusIsRefusedNamingCorpus)
{
    const std::string dir = fresh_dir("bad-corpus");
    std::filesystem::create_directories(dir + "/empty");
    put_bytes(dir + "/empty/README.md", "only a description, not text of the corpus");
    put_bytes(dir + "/cut.txt", std::string("ab\xC3", 3)); // a two-byte sequence cut short
    put_bytes(dir + "/surrogate.txt", "\xED\xA0\x80");     // U+D800 encoded: not a character
    put_bytes(dir + "/overlong.txt", "\xC0\xAF");          // '/' in two bytes: overlong
    for (const std::string& path : {dir + "/none", dir + "/empty", dir + "/cut.txt", dir + "/surrogate.txt",
                                    dir + "/overlong.txt", std::string()}) {
        try {
            load_corpus(path);
            ADD_FAILURE() << path;
        } catch (const ParameterError& e) {
            EXPECT_EQ(e.parameter(), "corpus") << path;
        }
    }
}

// The loss evaluation reports, on logits written by hand: vocabulary 3, two positions. Position 0: logits
// (0, ln 2, 0), target 1: p = 2 / 4, -ln p = ln 2. Position 1: logits (0, 0, 0), target 0: p = 1 / 3,
// -ln p = ln 3. Mean cross-entropy ln 6 / 2 = 0.895880 nats; perplexity exp of it = sqrt 6 = 2.449490;
// bits per character log2(6) / 2 = 1.292481; accuracy: position 0's argmax is 1 (right), position 1's
// three-way tie goes to id 0 (torch's argmax: the first maximum), right too.
TEST(LabLanguageModel, PerplexityIsTheExpOfTheMeanCrossEntropyAsComputedByHand)
{
    TaskBatch b;
    b.batch = 1;
    b.length = 2;
    b.input = {1, 2};
    b.target = {1, 0};
    b.answer = {1, 1};
    const torch::Tensor logits =
        torch::tensor(std::vector<float>{0.0f, static_cast<float>(std::log(2.0)), 0.0f, 0.0f, 0.0f, 0.0f})
            .view({1, 2, 3});
    const BatchLoss l = answer_loss(logits, b);
    EvalRow row;
    row.loss = l.loss.item<double>();
    EXPECT_NEAR(row.loss, std::log(6.0) / 2, 1e-6); // float32 logits
    EXPECT_NEAR(row.perplexity(), std::sqrt(6.0), 1e-5);
    EXPECT_NEAR(row.bits_per_character(), std::log2(6.0) / 2, 1e-6);
    EXPECT_EQ(l.answers, 2.0);
    EXPECT_EQ(l.correct, 2.0);
}

// The corpus's unigram model, the baseline: each character's frequency in the training text, add-one
// smoothed over the vocabulary (a held-out character absent from training keeps a probability), scored on
// the held-out text. The course changes whenever a lesson does, so the test computes it rather than
// quoting it.
double unigram_perplexity(const Corpus& c)
{
    std::map<std::int64_t, double> count;
    for (std::int64_t t : c.training)
        count[t] += 1;
    const double n = static_cast<double>(c.training.size()), v = c.id.vocabulary;
    double nats = 0;
    for (std::int64_t t : c.held_out)
        nats -= std::log((count[t] + 1) / (n + v));
    return std::exp(nats / static_cast<double>(c.held_out.size()));
}

// 200 steps of a 2-layer, width-32 model at length 32 on the course (seed 0, a few seconds). The bar:
// held-out perplexity at length 32 below half the unigram baseline, which a model that learned no more
// than character frequencies cannot pass.
TEST(LabLanguageModel, AShortTrainingBringsHeldOutPerplexityFarBelowTheUnigramModel)
{
    const Corpus corpus = load_corpus(default_corpus());
    const double baseline = unigram_perplexity(corpus);
    ASSERT_GT(baseline, 10.0); // hundreds of distinct characters: far from a trivial text
    LabConfig c = lm_config(default_corpus(), 200);
    c.layers = 2;
    c.d_model = 32;
    c.heads = 2;
    c.train_len = 32;
    c.batch = 16;
    c.warmup = 20;
    c.log_every = 50;
    c.checkpoint_every = 200;
    const std::string dir = fresh_dir("lm-train");
    const auto t0 = std::chrono::steady_clock::now();
    const TrainSummary s = train_run(c, dir, "test");
    ASSERT_TRUE(s.complete);
    EvalOptions o;
    o.lengths = {32};
    const std::vector<EvalRow> rows = evaluate_run(dir, o);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_LT(rows[0].perplexity(), 0.5 * baseline) << "unigram " << baseline;
    EXPECT_NEAR(rows[0].bits_per_character(), rows[0].loss / std::log(2.0), 1e-12);
    // The time is recorded (ctest's XML, --gtest_output), not asserted: the machines are shared, and speed
    // is the benchmarks' business (docs/benchmarks.md, "Lab").
    ::testing::Test::RecordProperty("seconds", std::to_string(seconds));
    // metrics.jsonl carries the training perplexity; config.json the corpus's identity.
    EXPECT_NE(testing::file_bytes(dir + "/metrics.jsonl").find("\"perplexity\""), std::string::npos);
    const RunInfo info = read_run_config(dir);
    EXPECT_TRUE(info.config.corpus_id == corpus.id);
    EXPECT_EQ(info.config.vocab_size, corpus.id.vocabulary);
}

TEST(LabLanguageModel, AnEvaluationOnAnotherCorpusIsRefusedNamingCorpus)
{
    const std::string marked = marked_corpus();
    LabConfig c = lm_config(marked, 4);
    c.train_len = 8;
    c.log_every = 2;
    c.checkpoint_every = 4;
    const std::string dir = fresh_dir("lm-other-corpus");
    ASSERT_TRUE(train_run(c, dir, "test").complete);
    EvalOptions o;
    o.lengths = {8};
    o.sequences = 4;
    EXPECT_EQ(evaluate_run(dir, o).size(), 1u); // its own corpus, found from config.json
    put_bytes(marked + "/one.txt", std::string(90, 'a') + std::string(10, 'x')); // changed
    try {
        evaluate_run(dir, o);
        ADD_FAILURE() << "a changed corpus";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "corpus");
        EXPECT_NE(e.allowed().find("hash"), std::string::npos) << e.allowed();
    }
    o.corpus = default_corpus();
    EXPECT_THROW(evaluate_run(dir, o), ParameterError);
}

TEST(LabLanguageModel, ALengthBeyondALearnedTableIsNotDefined)
{
    LabConfig c = lm_config(default_corpus(), 4);
    c.method = "learned";
    c.log_every = 2;
    c.checkpoint_every = 4;
    const std::string dir = fresh_dir("lm-learned");
    ASSERT_TRUE(train_run(c, dir, "test").complete);
    EvalOptions o;
    o.lengths = {12, 24};
    o.sequences = 4;
    const std::vector<EvalRow> rows = evaluate_run(dir, o);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_TRUE(rows[0].defined);
    EXPECT_FALSE(rows[1].defined);
}

// A sweep's table of lm runs adds perplexity, exp(loss): ln 20 gives 20 (17 significant digits in the CSV,
// within 1e-12 relative), and "not defined" past a learned table in every column.
TEST(LabLanguageModel, ASweepTableOfLanguageModelsShowsPerplexity)
{
    SweepTable t;
    t.task = "lm";
    t.train_len = 8;
    t.methods = {"rope", "learned"};
    t.lengths = {8, 16};
    t.rows = {{"rope", 0, 8, true, 0.25, std::log(20.0)}, {"learned", 0, 16, false, 0.0, 0.0}};
    const std::string csv = sweep_csv(t);
    EXPECT_EQ(csv.rfind("method,seed,length,accuracy,loss,perplexity\n", 0), 0u) << csv;
    EXPECT_NE(csv.find("learned,0,16,not defined,not defined,not defined\n"), std::string::npos) << csv;
    const std::size_t line = csv.find("rope,0,8,");
    ASSERT_NE(line, std::string::npos);
    const std::string row = csv.substr(line, csv.find('\n', line) - line);
    EXPECT_NEAR(std::stod(row.substr(row.rfind(',') + 1)), 20.0, 20.0 * 1e-12) << row;
    const nlohmann::json j = nlohmann::json::parse(sweep_json(t));
    EXPECT_NEAR(j["rows"][0]["perplexity"].get<double>(), 20.0, 20.0 * 1e-12);
    EXPECT_EQ(j["rows"][1]["perplexity"], "not defined");
    t.task = "copy"; // the synthetic tasks' table is unchanged
    EXPECT_EQ(sweep_csv(t).rfind("method,seed,length,accuracy,loss\n", 0), 0u);
}

// config.json of an lm run is read without trusting it: its corpus record missing, or a vocabulary larger
// than the model's, names the field.
TEST(LabLanguageModel, ADamagedCorpusRecordInConfigIsRefusedNamingTheField)
{
    LabConfig c = lm_config(marked_corpus(), 2);
    c.train_len = 8;
    c.log_every = 1;
    c.checkpoint_every = 2;
    const std::string dir = fresh_dir("lm-damaged");
    ASSERT_TRUE(train_run(c, dir, "test").complete);
    const std::string good = testing::file_bytes(dir + "/config.json");
    nlohmann::json j = nlohmann::json::parse(good);
    j["task"]["corpus"]["vocabulary"] = 100000;
    put_bytes(dir + "/config.json", j.dump());
    try {
        read_run_config(dir);
        ADD_FAILURE() << "a vocabulary larger than the model's";
    } catch (const LabRunError& e) {
        EXPECT_NE(std::string(e.what()).find("vocabulary"), std::string::npos) << e.what();
    }
    j = nlohmann::json::parse(good);
    j["task"].erase("corpus");
    put_bytes(dir + "/config.json", j.dump());
    try {
        read_run_config(dir);
        ADD_FAILURE() << "no corpus record";
    } catch (const LabRunError& e) {
        EXPECT_NE(std::string(e.what()).find("corpus"), std::string::npos) << e.what();
    }
    put_bytes(dir + "/config.json", good);
    EXPECT_TRUE(read_run_config(dir).config.corpus_id == load_corpus(c.corpus).id);
}

} // namespace
} // namespace posatlas::lab

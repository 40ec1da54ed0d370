// SPDX-License-Identifier: GPL-3.0-or-later
// The extrapolation lab: train a small decoder-only transformer on a synthetic task at one length with one
// positional encoding, then measure it at longer lengths (docs/lab.md).
//
// The model: token embedding (plus the absolute encoding for sinusoidal / learned), `layers` pre-LayerNorm
// blocks (causal multi-head attention, an MLP of mlp_ratio x d_model with GELU), a final LayerNorm and an
// untied output layer. The positional part of attention is the method's own definition in core, never a
// second copy: RoPE's frequencies (and any test-time scaling) from compute_rope_frequencies, ALiBi's slopes
// from alibi_scaled_slopes, T5's buckets from T5Bucketer, the sinusoidal table from sinusoidal_encoding,
// xPos's theta and zeta from xpos_theta / xpos_zeta, Shaw's clipped index from shaw_relative_index,
// Transformer-XL's R_{i-j} from txl_relative_sinusoid, DeBERTa's log buckets and table rows from
// DebertaRelative; the logits are those compute_matrix gives for the
// per-head queries and keys (compute/attention_logits.h), which a test checks for every encoding.
//
// This header is LibTorch-free: the lab's torch code lives in lab/*_torch.cpp.
#pragma once

#include "io/input_file.h"
#include "methods/rope/rope_params.h"
#include "scenario/params.h"
#include "scenario/types.h"

#include <Eigen/Dense>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace posatlas::lab {

// Encodings the lab trains with (ids as core's methods): nope, sinusoidal, learned, t5, alibi, rope, xpos,
// cope, shaw, transformer-xl, deberta.
const std::vector<std::string>& lab_methods();
// Tasks: copy, recall, induction (synthetic), lm (character-level language modelling on a text corpus).
const std::vector<std::string>& lab_tasks();

// ---------------------------------------------------------------- the lm task's corpus
// What identifies a corpus: its files (relative to the corpus path, sorted), a hash of their names and
// bytes (FNV-1a 64, hex), its characters (Unicode code points) and its vocabulary (distinct code points +
// the unknown id). A run's config.json records it; an evaluation on another corpus is refused.
struct CorpusId {
    std::vector<std::string> files;
    std::string hash;
    std::int64_t characters = 0;
    int vocabulary = 0;
    bool operator==(const CorpusId& o) const
    {
        return files == o.files && hash == o.hash && characters == o.characters && vocabulary == o.vocabulary;
    }
};
// A corpus read as UTF-8 and mapped to character ids: id 0 is "unknown" (a character outside the
// vocabulary), ids 1..V the corpus's distinct code points in increasing order. Each file's last tenth
// (kHeldOutFraction of its characters, rounded down) is held out; the training text is the files' first
// nine tenths one after another, the held-out text their last tenths: a window of either never reaches
// into the other.
inline constexpr double kHeldOutFraction = 0.1;
struct Corpus {
    std::string path;
    CorpusId id;
    std::vector<char32_t> characters;   // the vocabulary, sorted: character ids 1..V
    std::vector<std::int64_t> training; // character ids
    std::vector<std::int64_t> held_out;
    std::int64_t token(char32_t c) const; // 0 when not in the vocabulary
};
// A file (UTF-8 text) or a folder: every *.md and *.txt file in it and its subfolders but README.md (a
// folder's description, not its text), in byte order of their relative paths. ParameterError naming
// "corpus" when it is missing, empty, not UTF-8, or larger than 64 MiB in all.
Corpus load_corpus(const std::string& path);
// The built-in course (resources/lessons: en/*.md and zh_CN/*.md): <exe>/../share/posatlas/lessons or
// <exe>/../../share/posatlas/lessons (installed, beside bin/ or libexec/posatlas/), else the source tree's
// resources/lessons. "" when none exists.
std::string default_corpus();

struct LabConfig {
    std::string task = "copy";
    std::string method = "rope";
    int layers = 2;
    int d_model = 64;
    int heads = 4;
    int mlp_ratio = 4;
    int alphabet = 16;           // letters of the task (vocabulary = alphabet + 3 special tokens)
    std::int64_t train_len = 32; // tokens the model reads per sequence in training
    int steps = 2000;
    int batch = 32;
    double lr = 3e-3;
    int warmup = 100; // linear warm-up steps, then cosine decay to 0
    double weight_decay = 0.01;
    std::uint64_t seed = 0;
    int threads = 1;    // torch::set_num_threads
    int log_every = 50; // a metrics.jsonl line
    int checkpoint_every = 500;
    // Positional fields (those of the method in use are written to config.json, all of them are read).
    double rope_theta = 10000.0;
    RopePairing rope_pairing = RopePairing::Half;
    double partial_rotary_factor = 1.0;
    std::int64_t max_positions = 0; // learned: rows of the table (0: train_len)
    int t5_num_buckets = 32;
    int t5_max_distance = 128;
    double xpos_scale_base = 512.0;
    int cope_npos_max = 64;
    int shaw_max_relative_position = 16; // Shaw et al.'s clip distance k (the paper's 16)
    // DeBERTa's log buckets: att_span = position_buckets, 2 att_span relative embeddings.
    int deberta_position_buckets = 32;
    int deberta_max_relative_positions = 128;
    double sinusoidal_base = 10000.0; // also Transformer-XL's R_{i-j}
    // lm: the corpus (file or folder), its identity once read, and the model's vocabulary (0 before the
    // corpus is read: then the corpus's own, its characters + unknown).
    std::string corpus;
    CorpusId corpus_id;
    int vocab_size = 0;

    int head_dim() const { return d_model / heads; }
    bool language_model() const { return task == "lm"; }
    int vocab() const { return language_model() ? vocab_size : alphabet + 3; }
    std::int64_t learned_rows() const { return max_positions > 0 ? max_positions : train_len; }
};

// An lm configuration given its corpus: corpus_id recorded, vocab_size the corpus's vocabulary when 0;
// ParameterError naming "vocab" and the value it needs when the corpus does not fit, "train-len" when the
// training text is shorter than a training window. Nothing for the synthetic tasks.
void fit_corpus(LabConfig& c, const Corpus& corpus);
// The corpus of an lm run, read from `path` ("" : the run's own, c.corpus) and checked against the
// identity its config.json records: ParameterError naming "corpus" when it is another corpus.
Corpus run_corpus(const LabConfig& c, const std::string& path = "");

// The warm-up when none is given: LabConfig's 100 steps, or a tenth of the steps when that is fewer.
int default_warmup(int steps);
// Every field in range, one against another (heads divide d_model, an even head dimension for the rotary
// methods, ...) and the training within the memory budget: ParameterError naming the command-line option
// (e.g. "train-len") and what is allowed ("at most 2048").
void validate(const LabConfig& c);
// Bytes one training step needs (weights, AdamW state, activations and their gradients), an upper estimate.
double training_bytes(const LabConfig& c);
// What the lab lets one run use.
inline constexpr double kLabMemoryBudget = 3.0 * (1ull << 30);

// ---------------------------------------------------------------- tasks
inline constexpr std::int64_t kPad = 0, kSep = 1, kTrigger = 2, kFirstLetter = 3;
// One batch of a task, generated from (seed, index) alone: the same numbers on every machine.
//  copy:      a random string, a separator, the string again; answers: the second copy. The string fills
//             the sequence (length / 2 letters) for evaluation; in training (`training`) its length is
//             uniform in [1, length / 2], padded in front, so that no fixed offset solves the task.
//  recall:    key-value pairs (one random mapping per sequence), a separator, then keys seen before each
//             followed by its value; answers: those values.
//  induction: random letters with a trigger token followed by a letter b in the first half, and the trigger
//             again at the end; answer: b after the last trigger.
// input[b * length + t] is the token at position t, target[...] the next token, answer[...] 1 where the
// target is an answer token (accuracy and the training loss count only those).
struct TaskBatch {
    int batch = 0;
    std::int64_t length = 0;
    std::vector<std::int64_t> input, target;
    std::vector<std::uint8_t> answer;
};
TaskBatch make_batch(const std::string& task, int alphabet, std::int64_t length, int batch,
                     std::uint64_t seed, std::uint64_t index, bool training = false);
//  lm:        windows of length + 1 characters of the corpus, each start uniform (SplitMix64 from seed,
//             index) over the training text (`training`) or the held-out text; every position's next
//             character is an answer. ParameterError naming "train-len" or "lengths" when the text is
//             shorter than a window.
TaskBatch make_lm_batch(const Corpus& corpus, std::int64_t length, int batch, std::uint64_t seed,
                        std::uint64_t index, bool training = false);
// The batch of a run's task: make_lm_batch for lm (`corpus` required), make_batch otherwise.
TaskBatch task_batch(const LabConfig& c, const Corpus* corpus, std::int64_t length, int batch,
                     std::uint64_t seed, std::uint64_t index, bool training = false);

// ---------------------------------------------------------------- core's definitions, per config
// What evaluation changes at test time: a RoPE scaling of the registry (rope_type, factor; the trained
// length is original_max_position_embeddings), an ALiBi scaling. LongRoPE (core's longrope, as HF
// _compute_longrope_parameters and Phi-3's Phi3LongRoPEScaledRotaryEmbedding): one factor per rotary pair,
// long_factor for a sequence longer than the trained length, short_factor otherwise (empty: all 1, the
// trained frequencies); max_position_embeddings = train_len x factor sets the attention factor.
struct TestScaling {
    RopeType rope_type = RopeType::Default;
    double factor = 1.0;
    AlibiScaling alibi = AlibiScaling::None;
    std::vector<double> short_factor, long_factor;
};
// The core scenario whose logits (compute_matrix, MatrixKind::Logits) are the model's pre-softmax scores of
// head `head` for `seq_len` positions, given the head's queries and keys before any positional step. For
// sinusoidal and learned (added to the embedding, already inside the queries and keys) that is NoPE; their
// table is the Encoding of absolute_scenario(). T5's table and CoPE's embeddings are read from `weights`
// (model.safetensors) tensors t5_tensor() and cope_tensor(layer), Shaw's a^K and a^V from shaw_tensor(layer,
// "key" / "value"), Transformer-XL's W_{k,R}, u and v of the head from txl_tensor(layer, head, "r_net" /
// "r_w_bias" / "r_r_bias"), DeBERTa's relative embeddings (kDebertaRelTensor, shared by the layers as HF
// DebertaV2Encoder.rel_embeddings) and the head's projections deberta_tensor(layer, head, "pos_key_proj" /
// "pos_query_proj").
Scenario core_scenario(const LabConfig& c, std::int64_t seq_len, int head, const TestScaling& scaling = {},
                       const std::string& weights = "", int layer = 0);
Scenario absolute_scenario(const LabConfig& c, std::int64_t seq_len, const std::string& weights = "");
RopeParams rope_params(const LabConfig& c, std::int64_t seq_len, const TestScaling& scaling);
AlibiParams alibi_params(const LabConfig& c, std::int64_t seq_len, const TestScaling& scaling);
T5Params t5_params(const LabConfig& c);
std::string t5_tensor(int layer);
std::string cope_tensor(int layer);
std::string shaw_tensor(int layer, const std::string& table);
std::string txl_tensor(int layer, int head, const std::string& table);
std::string deberta_tensor(int layer, int head, const std::string& table);
inline constexpr const char* kDebertaRelTensor = "rel_embeddings";
ShawParams shaw_params(const LabConfig& c);
TransformerXLParams txl_params(const LabConfig& c);
DebertaParams deberta_params(const LabConfig& c);
inline constexpr const char* kLearnedTensor = "pos.learned";

// ---------------------------------------------------------------- run folders
// A run folder: config.json (architecture, task, positional fields, training state), model.safetensors
// (the last good checkpoint), metrics.jsonl (one line per log_every steps), command.txt (the command).
// config.json's "status" is "running" until the last file is written, then "complete"; "cancelled" when
// the run was stopped. A run whose files could not be written is never marked complete.
struct RunInfo {
    LabConfig config;
    std::string status; // running, cancelled, complete
    int steps_done = 0;
};
// Reads and checks config.json (every field's type and range, nothing else changed). Throws LabRunError.
RunInfo read_run_config(const std::string& dir);

class LabRunError : public InputFileError
{
public:
    using InputFileError::InputFileError;
};
// A new run's folder: refused (LabRunError) when it already holds a run. train_run checks it; so does
// the command line before it starts the lab's process, to report it in the caller's own process.
void check_new_run_folder(const std::string& dir);

struct TrainProgress {
    int step = 0, steps = 0;
    double loss = 0.0;     // mean over the last log interval
    double accuracy = 0.0; // answer-token accuracy over the last log interval
    double seconds = 0.0;  // since training started
};
struct TrainHooks {
    CancelFn cancel;                                    // polled every step
    std::function<void(const TrainProgress&)> progress; // every step
};
struct TrainSummary {
    int steps_done = 0;
    bool complete = false;
    double seconds = 0.0;
    double steps_per_second = 0.0;
    double loss = 0.0, accuracy = 0.0; // of the last log interval
};
// Trains into `dir` (created; an existing run folder is refused: LabRunError). A cancel returns with
// complete = false and the last checkpoint on disk. OutputFileError when a file cannot be written.
TrainSummary train_run(const LabConfig& c, const std::string& dir, const std::string& command,
                       const TrainHooks& hooks = {});

// A short fine-tune at a longer length before evaluation, with the test-time scaling active (as the PI
// paper, Chen et al. 2023, and YaRN, Peng et al. 2023, fine-tune): AdamW as in training (the run's betas,
// weight decay and gradient clipping), linear warm-up over `warmup` steps then cosine decay to 0 over
// `steps`, batches of the run's size from the run's seed, at indices after its training steps. In memory:
// the run folder is never changed; `out` (optional) receives the fine-tuned model as a new run folder.
struct FineTune {
    int steps = 0; // 0: no fine-tune
    std::int64_t length = 0;
    double lr = 0.0; // 0: finetune_lr's default
    std::string out, command;
    bool active() const { return steps > 0; }
};
// The PI paper's ratio of fine-tune to pre-training peak learning rate: LLaMA 7B/13B were pre-trained at
// 3e-4 and fine-tuned at 2e-5, 33B/65B at 1.5e-4 and 1e-5; both 1/15.
inline constexpr double kFineTuneLrRatio = 1.0 / 15.0;
// The fine-tune's peak learning rate: f.lr when set, else the run's lr x kFineTuneLrRatio.
double finetune_lr(const LabConfig& c, const FineTune& f);
// Its warm-up: a tenth of the steps (at most the run's warm-up), as lab train's default.
int finetune_warmup(const LabConfig& c, const FineTune& f);
// A fine-tune of run `c` in range: --finetune-steps, --finetune-len (a learned table's rows, recall's 8,
// the memory budget with the run's batch: ParameterError naming finetune-len and its largest allowed
// value), --finetune-lr. Nothing when !f.active().
void check_finetune(const LabConfig& c, const FineTune& f);

struct EvalOptions {
    std::vector<std::int64_t> lengths;
    std::string corpus;           // lm: "" reads the run's own corpus (config.json's task.corpus)
    int sequences = 256;          // per length
    std::uint64_t seed = 1000003; // test sequences: not the training ones
    TestScaling scaling;
    int threads = 1;
    FineTune finetune;
};
struct EvalRow {
    std::int64_t length = 0;
    bool defined = true;               // false: the learned table has no rows that far
    double accuracy = 0.0, loss = 0.0; // loss: mean cross-entropy of the answer tokens, in nats
    // Per layer: the Shannon entropy (nats) of the softmax attention, -sum_j p_j ln p_j over the keys a
    // query sees (causal), averaged over the heads, the query positions and the test sequences. Uniform
    // attention over the i + 1 visible keys would give ln(i + 1) at query i (mean ln(L!) / L over a row).
    std::vector<double> attention_entropy;
    // lm: exp(loss), and loss / ln 2.
    double perplexity() const;
    double bits_per_character() const;
};
// Reads the run (read_run_config and model.safetensors, each tensor's name, dtype, shape and values checked:
// LabRunError), fine-tunes it in memory when o.finetune is active, and evaluates it. Writes nothing in
// `dir`; only o.finetune.out, when set (a new run folder: LabRunError when it already holds a run).
// `finetune_loss`: the answer loss of the fine-tune's last 10 steps (0 without a fine-tune).
std::vector<EvalRow> evaluate_run(const std::string& dir, const EvalOptions& o, const CancelFn& cancel = {},
                                  double* finetune_loss = nullptr);

// One attention layer's view of an input: per head, the queries and keys before the positional step
// (length x head_dim) and the pre-softmax scores (length x length, NaN where the causal mask removes a key).
struct HeadProbe {
    Eigen::MatrixXf queries, keys, scores;
};
std::vector<HeadProbe> probe_attention(const std::string& dir, const std::vector<std::int64_t>& tokens,
                                       int layer, const TestScaling& scaling = {});

// ---------------------------------------------------------------- probes for the main views
// A run's attention on one input, as the app's views show it: one evaluation sequence of the run's task
// (task_batch(config, corpus, length, 1, seed, 0): for lm a held-out window of its corpus) at any length, one
// layer. write_probe() writes into
// `out` (a new or empty folder):
//   probe.safetensors  F32 tensors "tokens" [length], and per head H "queries.H", "keys.H" [length x
//                      head_dim] (before the positional step) and "scores.H" [length x length] (the
//                      model's pre-softmax scores, NaN where the causal mask removes a key);
//   head-H.posatlas.json  a session whose scenario is core_scenario() for head H with those queries and
//                      keys as its content files (paths relative to the session), showing the heatmap
//                      of that head's logits (not every head side by side): opened in the app (File > Open
//                      Session), every view shows the trained model's own attention.
// Before anything is written, each head's core logits are computed from that scenario and compared with
// the model's scores (within 2e-5 (1 + |logit|), float32 rounding, as the core-equality test checks):
// a session never shows what the model did not compute.
struct ProbeRequest {
    std::int64_t length = 64;
    int layer = 0;
    std::uint64_t seed = 1000003; // the evaluation's test seed
    TestScaling scaling;
    std::string corpus; // lm: "" reads the run's own corpus
};
// ParameterError naming the option (--length beyond a learned table's rows, --layer beyond the run's
// layers), LabRunError for an `out` that exists and is not an empty folder. LibTorch-free.
void check_probe(const RunInfo& info, const ProbeRequest& r, const std::string& out);
// The longest probe of a model with `heads` heads within kLabMemoryBudget (24 bytes per head and
// position pair: the model's and core's scores, the model's attention).
std::int64_t probe_max_length(int heads);
struct ProbeSummary {
    std::vector<std::string> sessions; // head-H.posatlas.json, one per head
    double largest_difference = 0.0;   // max |core - model| / (1 + |core|) over the heads' scores
};
ProbeSummary write_probe(const std::string& run_dir, const ProbeRequest& r, const std::string& out);

// Gradient check of one attention layer with the method's positional part, in double: the largest
// |autograd - central difference| / max(1, |central difference|) over the inputs and the positional
// parameters (learned table, T5 bias, CoPE embeddings, Shaw's tables, Transformer-XL's W_{k,R}, u, v,
// DeBERTa's relative embeddings and projections), step h.
double attention_gradient_check(const std::string& method, double h = 1e-6);

} // namespace posatlas::lab

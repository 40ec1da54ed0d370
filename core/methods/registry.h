// SPDX-License-Identifier: GPL-3.0-or-later
// The method registry: one MethodDescriptor per positional-encoding method, and one Field per
// parameter. Everything that lists methods or parameters loops over it: validation, the session JSON
// reader and writer, the command line's options, help and completion, the parameter panel's rows,
// the matrix kinds and their kernels, the views' captions. A field's range is written once, here,
// and the panel, validation and the command line read the same object.
//
// Adding a method: a folder under core/methods/ with its parameter struct, its descriptor (a function
// returning MethodDescriptor) and its kernels, one line in the list of registry.cpp, and its tests.
#pragma once

#include "methods/curve_family.h"
#include "methods/explanation.h"
#include "methods/gallery_figure.h"
#include "methods/method.h"
#include "methods/wording.h"
#include "scenario/types.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace posatlas {

struct Scenario;
struct MatrixJob;
struct RopeParams;

enum class FieldType {
    Int,  // integer in [lo, hi] (even when `even`)
    Real, // finite number in [lo, hi] (lo excluded when `lo_open`)
    Bool,
    Choice,       // one of `choices`, stored by id
    Seed,         // integer in [0, 2^64)
    OptionalReal, // a Real or "unset" (JSON null; 0 on a slider; omitted on the command line)
    RealList,     // a list of Reals, each in [lo, hi]
    Text,         // a string: a file path, or free text when !Field::path
};

struct FieldChoice {
    std::string_view id; // "yarn": JSON, command line
    const char* label;   // "yarn": the panel's combo box (translatable, context "ParamSpec")
};

// What Field::displayed_values gives: the values in effect and why they differ from the list's.
struct DisplayedValues {
    std::vector<double> values;
    std::vector<Wording> reasons; // "NTK-ALiBi", "slope scale × 2"; empty: no reason to show
};

struct Field {
    std::string key; // Hugging Face config key where one exists ("rope_theta"); session key
    FieldType type = FieldType::Real;
    double lo = 0.0, hi = 0.0; // inclusive, except lo with lo_open
    bool lo_open = false;
    bool even = false;                // Int: must be even
    bool log_scale = false;           // the panel's slider maps log10(value)
    int decimals = 0;                 // Real: spin box decimals
    double step = 1.0;                // spin box single step
    const char* label = "";           // translatable, context "ParamSpec"
    const char* unit = "";            // "positions", "×", "" (translatable, context "ParamSpec")
    const char* tooltip = "";         // what it does (translatable, context "ParamSpec")
    std::vector<FieldChoice> choices; // Choice
    std::vector<std::pair<std::string_view, std::string_view>> choice_aliases; // accepted id -> canonical id
    const char* unset_label = nullptr;       // Int / OptionalReal: the text shown for 0 / unset ("none")
    std::string option;                      // command-line option without dashes; "" = key with '-' for '_'
    std::vector<std::string> option_aliases; // other accepted options ("dim" for hidden_size)
    std::vector<std::string> aliases;        // older keys accepted in session files ("stddev")
    std::vector<std::string> negations;      // Bool: flags meaning false ("causal" for bidirectional)
    bool panel = true;                       // has a row in the parameter panel
    bool follows_seq_len = false; // takes --seq-len's value on the command line unless given itself
    bool path = true;             // Text: a file name (false: free text, such as a sentence)
    std::function<bool(const Scenario&)> shown; // the panel shows the row only when true (null: always)
    // A value that means little without another one (a RoPE scaling type with factor 1 is the identity):
    // when a user chooses this field's value, in the panel or on the command line, and did not give the
    // other field, companion() may set it (RoPE: factor 4). Returns the key of the field it changed, or
    // "" when it changed nothing. Not applied to files (configs, sessions), which say what they mean.
    std::function<std::string(Scenario&)> companion;
    // RealList edited in the panel, one slider per element: the values the elements have when the
    // list does not set them (ALiBi: the paper's slope of every head); its size is the number of
    // sliders. Null: the list is not edited in the panel.
    //
    // Such a list overrides a prefix of the defaults: element k of the list replaces default k, the
    // defaults past its end stay. It is stored in its shortest form (list_with): trailing elements
    // equal to their default are dropped, so resetting the last chosen value shortens the list and
    // resetting all of them leaves it empty, and a session saved after "Reset all" is the paper's.
    // An element equal to its default before a chosen one is kept, as the prefix needs it.
    std::function<std::vector<double>(const Scenario&)> list_defaults;
    // RealList edited in the panel: the values the figures use instead of the list's, and why, shown beside
    // the sliders (ALiBi's slopes after its length scaling and slope scale); null: the list's own values.
    std::function<DisplayedValues(const Scenario&)> displayed_values;
    // RealList without a panel row (panel = false) that the panel still shows, read only, while shown(s)
    // allows (LongRoPE's per-pair factors, which come from a config or preset).
    bool read_only_summary = false;

    // Text field naming a file with one of the method's own learned tables (methods/table_files.h): the
    // shape the scenario needs it to have, and (for File > Open Weights…) how a scenario takes the shape of
    // a rows x cols table (sets the sizes the table fixes; null: the table must fit as it is).
    std::function<TableShape(const Scenario&)> table_shape;
    std::function<void(Scenario&, std::int64_t rows, std::int64_t cols)> table_adopt;
    // A table field's adoption rule (io/checkpoint_adoption.h), when it is not the plain one of a table
    // pair (the file, key + "_tensor", then table_adopt with the tensor's rows and columns):
    // adopt_tensor(s, file, tensor) points s's table at `tensor` of `file` (empty: the one the method
    // knows) and takes the sizes the table fixes (T5: buckets, heads, direction), throwing what the reader
    // throws for a file that holds no usable table. The command line applies it when the field's option is
    // given; File > Open Weights… whenever the field is chosen.
    std::function<void(Scenario&, const std::string& file, const std::string& tensor)> adopt_tensor;
    // A model's whole checkpoint (a cached snapshot's: --model, File > Open Model…): when it holds a table
    // the method knows for this field, adopt_checkpoint(s, checkpoint) points the field at it and returns
    // what the import report says ("T5 bias table … read from …"); nullopt, s unchanged, when it holds
    // none. Null: the field is not filled from a checkpoint.
    std::function<std::optional<std::string>(Scenario&, const std::string& checkpoint)> adopt_checkpoint;
    // Table field: the key of the Text field naming its tensor in a .safetensors checkpoint (table_fields:
    // key + "_tensor").
    std::string tensor_key;
    // Table field: what File > Open Weights… says of it (translatable, context "TableAdoption"): its "Use
    // as" entry, its OK button and its hint (%1: the tensor). Null: "<method>: <label>", "Use as Method
    // Table" and the hint of a method's table.
    const char* use_as = nullptr;
    const char* use_as_button = nullptr;
    const char* use_as_hint = nullptr;

    // Typed access to the member it describes. get() returns the JSON value (number, bool, choice id,
    // null for an unset OptionalReal, array, string); set() takes one of the same type, unchecked.
    std::function<nlohmann::json(const Scenario&)> get;
    std::function<void(Scenario&, const nlohmann::json&)> set;

    std::string option_name() const; // "rope-theta" (without dashes)
    // "an integer in [2, 8192]", "> 1 and <= 1e+12", "one of default|linear|...": the allowed values.
    std::string allowed() const;
    // Throws ParameterError(key, allowed(), value) unless `value` has the right type and range.
    void check(const nlohmann::json& value) const;
    // The value as a number (Bool 0/1, Choice its index, unset 0), and back; for sliders and combos.
    double number(const Scenario& s) const;
    void set_number(Scenario& s, double v) const;
    // The JSON value of a choice's index, and the index of an id or alias (nullopt: not a choice).
    std::optional<int> choice_index(std::string_view id) const;
    // RealList with list_defaults: the value of every element in effect (the list's, then the
    // defaults), as many as list_defaults gives.
    std::vector<double> list_values(const Scenario& s) const;
    // RealList with list_defaults: the JSON list after setting element `index` to `value` (nullopt:
    // back to its default), in the shortest form described at list_defaults. Unchecked (check() it).
    nlohmann::json list_with(const Scenario& s, std::size_t index, std::optional<double> value) const;
};

// A matrix a method offers, with the kernel that computes it.
struct MatrixKindSpec {
    MatrixKind kind;
    const char* label;       // "logits" (translatable, context "MatrixKind")
    const char* value_label; // "logit" (the colour bar's quantity)
    // Fills job.out.values for job's sampled cells, or block means when job.block_means() is set.
    std::function<void(MatrixJob&)> compute;
    // True when compute() gives exact block means for this scenario (null: never; point sampling).
    std::function<bool(const Scenario&)> block_means;
    // Its values never lie on both sides of 0 (ALiBi's bias, weights, an index from 0), so the heatmap
    // never colours it with the diverging map, and its explanation does not mention that map.
    bool one_signed = false;
};

struct MethodDescriptor {
    Method method;
    std::string section;    // key of its parameters in session files ("transformer_xl")
    const char* name;       // "RoPE (Su et al. 2021)" (translatable, context "Method")
    const char* short_name; // "RoPE" (translatable, context "Method")
    const char* noun;       // "RoPE relative rotations": what a message calls it
    const char* reference;  // the paper and the reference implementation the kernels follow
    std::vector<Field> fields;
    std::vector<MatrixKindSpec> kinds;   // the most telling first
    std::vector<std::string> quantities; // `posatlas compute` quantities specific to it

    // Cross-field rules beyond each field's own range (beta_fast >= beta_slow); throws ParameterError.
    std::function<void(const Scenario&)> check;
    // Dimension of the content vectors (queries, keys) its logits use.
    std::function<int(const Scenario&)> content_dim;
    // Columns of its Encoding kind (absolute methods), else null.
    std::function<std::int64_t(const Scenario&)> encoding_dim;
    // Heads of a per-head method (bias tables, slopes); null: one head.
    std::function<int(const Scenario&)> heads;
    // The context it knows (trained or target length), for the distance range of curves; null: N.
    std::function<std::int64_t(const Scenario&)> context_length;
    // A logit curve with position-independent content (content_is_position_independent) straight from
    // the method: distance_logits(s, query, precision) (s validated, query in [0, seq_len)) builds the
    // method's tables once and returns an evaluator that writes the logits of `query` against the keys at
    // the distances r in [first, last) (0 <= first, last <= query + 1) to out[r - first]: each the cell
    // (query, query - r) of compute_matrix(s, Logits) within rounding (with Precision::Double; below,
    // Single's bound). For relative methods that is a
    // function of r alone. The evaluator is called from several OpenMP threads at once and starts no
    // parallel work of its own. Logit curves use it instead of rows of compute_matrix
    // (curve_envelope.h), which paid the matrix machinery per row of 2^16 keys: Shaw's
    // 10^6-distance curve took 0.21 s. Null: the method has none.
    // With Precision::Single (the curves view) the evaluator may sum in float32 from exact angles where
    // it has such a kernel (sinusoidal, Transformer-XL: SinusoidSum's stated bound); others ignore it.
    using DistanceLogitsFn = std::function<void(std::int64_t first, std::int64_t last, double* out)>;
    std::function<DistanceLogitsFn(const Scenario&, std::int64_t query, Precision precision)> distance_logits;
    // A logit curve whose cells cannot be computed apart, for any content (CoPE: a key's position sums
    // the gates of every key between it and the query): streamed_distance_logits(s, query) (s validated)
    // returns an evaluator as above that is called from one thread, with ranges of distances that
    // follow each other upward ([a, b), then [b, c), ...; a first range not starting at 0 streams the
    // distances before it and drops them). It carries its running state from call to call and holds
    // one piece of keys at a time. Null: the method has none. (Its sampled curves over generated content
    // go through compute_matrix's rows, which for CoPE stop streaming once the positions are clamped.)
    std::function<DistanceLogitsFn(const Scenario&, std::int64_t query)> streamed_distance_logits;
    // What the figure captions say, in order: a field's key and its caption text, "%1" standing for the
    // value ({"rope_theta", "θ %1"}; translatable, context "Caption"). A Bool field is captioned only when
    // true, a Choice only when not at its first (default) choice, a field the panel hides not at all.
    std::vector<std::pair<std::string, const char*>> caption_fields;
    // A trained table the method reads from a file (Learned's position table, T5's bias table), as the
    // captions name it (the UI words each `what`); nullopt: none. With replaces_fields the table also
    // sets what caption_fields would say (Learned's dimension and length), which the caption then omits.
    struct TableCaption {
        enum class What { Table, TrainedTable, TrainedTensor, DecoderBias, EncoderBias };
        What what = What::Table;
        std::string tensor, path;
        bool replaces_fields = false;
    };
    std::function<std::optional<TableCaption>(const Scenario&)> table_caption;
    // Per-head panels (small multiples): the symbol of the parameter that tells the heads apart and
    // every head's value (ALiBi: "m" and each head's slope, scaled as the kernels use it), for the panels'
    // captions ("m₃=0.0625"). Null: heads are captioned by index.
    const char* head_symbol = nullptr;
    std::function<std::vector<double>(const Scenario&)> head_values;
    // True when the scenario's `causal` switch masks its logits as well as its weights (NoPE, which has no
    // mask of its own); false: the switch masks the weights only.
    bool logits_follow_causal = false;
    // "What am I looking at?" beside its heatmap of kind k, one of `kinds` (Weights too: it starts from
    // weights_explanation()): what a cell is for this method and what to look for with this content and
    // these parameters (methods/explanation.h). Every method has one.
    std::function<ExplanationText(const Scenario&, MatrixKind)> explain;
    // The same beside its curves, after the sentence on the x axis (the registry fills in
    // logit_curve_explanation() for a method that leaves it null).
    std::function<ExplanationText(const Scenario&)> explain_curves;
    // Its own curves against distance (methods/curve_family.h), the first that applies drawn; empty: the
    // curves view draws its logit against distance.
    std::vector<CurveFamily> curve_families;
    // The last query that has a position: the query whose logits its logit curve shows (a learned table
    // of 1024 rows stops there); null: seq_len - 1.
    std::function<std::int64_t(const Scenario&)> last_query;
    // A rotary method: the RoPE parameters its rotations follow, which the rotation diagram, the frequency
    // spectrum and the RoPE explorer draw (RoPE: its own; MLA: derived from its fields), by value. Null, or
    // nullopt returned: those views do not apply to it.
    std::function<std::optional<RopeParams>(const Scenario&)> rotary;

    // Its figures in `posatlas gallery`, in order (methods/gallery_figure.h); empty: none.
    std::vector<GalleryFigureSpec> gallery;

    const Field* field(std::string_view key) const; // by key or alias; null if none
    const MatrixKindSpec* kind(MatrixKind k) const; // null if it does not offer k
};

// The RoPE parameters the rotary views draw for s (MethodDescriptor::rotary); nullopt when s's method is
// not rotary.
std::optional<RopeParams> rotary_params(const Scenario& s);
// Whether method m is rotary for its default parameters (menus that offer the rotary views).
bool is_rotary(Method m);
// The query whose logits a logit curve of s shows (MethodDescriptor::last_query).
std::int64_t curve_last_query(const Scenario& s);

// Every registered method, in the order of menus and listings.
const std::vector<MethodDescriptor>& methods();
// The descriptor of m; throws ParameterError("method", ...) for an unknown id.
const MethodDescriptor& descriptor(Method m);
std::optional<Method> parse_method(std::string_view id);
std::string_view method_id(Method m);
std::string method_ids(std::string_view sep = "|"); // "sinusoidal|learned|..."
std::string_view method_display_name(Method m);
// The method whose descriptor lists `quantity` among its `posatlas compute` quantities; nullopt: none
// does (a quantity of every method, such as `matrix`).
std::optional<Method> quantity_method(std::string_view quantity);

// Fields of the scenario itself, shown for every method: seq_len, head, content, content_seed, text, causal,
// permuted (the sentence's permutation), and the content files queries, queries_tensor, keys, keys_tensor
// (not in the panel).
const std::vector<Field>& common_fields();
const Field* common_field(std::string_view key);
// Every field: the scenario's own, then each method's in registry order.
std::vector<const Field*> all_fields();

// Every matrix kind any method offers, by id (for parsing --kind).
std::optional<MatrixKind> parse_matrix_kind(std::string_view id);
std::string_view matrix_kind_id(MatrixKind k);
// The kinds that make sense for a method, the most telling first.
std::vector<MatrixKind> matrix_kinds_for(Method m);
// The translatable label of a kind ("logits", "contextual positions").
const char* matrix_kind_label(MatrixKind k);

// The index of `id` (or of the choice an alias names) in `choices`.
std::optional<int> choice_index_of(const std::vector<FieldChoice>& choices,
                                   const std::vector<std::pair<std::string_view, std::string_view>>& aliases,
                                   std::string_view id);

// ------------------------------------------------------------------ building descriptors
// bind(&RopeParams::rope_theta) gives get/set for a member of a parameter struct kept in the
// Scenario's ParamSet. Enum members map to Choice ids by their integer value (the order of choices).
namespace field_access {
template <typename P, typename M> void bind(Field& f, M P::*member);
}

} // namespace posatlas

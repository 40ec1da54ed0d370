<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Caption</name>
    <message>
        <source>%1 heads</source>
        <translation>%1 个头</translation>
    </message>
    <message>
        <source>slopes × %1</source>
        <translation>斜率 × %1</translation>
    </message>
    <message>
        <source>%1</source>
        <translation>%1</translation>
    </message>
    <message>
        <source>d %1</source>
        <translation>d %1</translation>
    </message>
    <message>
        <source>npos %1</source>
        <translation>npos %1</translation>
    </message>
    <message>
        <source>%1 buckets</source>
        <translation>%1 个桶</translation>
    </message>
    <message>
        <source>span %1</source>
        <translation>跨度 %1</translation>
    </message>
    <message>
        <source>trained %1</source>
        <translation>训练长度 %1</translation>
    </message>
    <message>
        <source>θ %1</source>
        <translation>θ %1</translation>
    </message>
    <message>
        <source>× %1</source>
        <translation>× %1</translation>
    </message>
    <message>
        <source>k %1</source>
        <translation>k %1</translation>
    </message>
    <message>
        <source>base %1</source>
        <translation>基数 %1</translation>
    </message>
    <message>
        <source>max %1</source>
        <translation>最大 %1</translation>
    </message>
    <message>
        <source>bidirectional</source>
        <translation>双向</translation>
    </message>
    <message>
        <source>γ %1</source>
        <translation>γ %1</translation>
    </message>
    <message>
        <source>slopes %1</source>
        <translation>斜率 %1</translation>
    </message>
    <message>
        <source>linear (PI)</source>
        <translation>线性插值 (PI)</translation>
    </message>
    <message>
        <source>NTK-aware</source>
        <translation>NTK-aware（NTK 感知）</translation>
    </message>
    <message>
        <source>dynamic NTK</source>
        <translation>动态 NTK</translation>
    </message>
    <message>
        <source>YaRN</source>
        <translation>YaRN</translation>
    </message>
    <message>
        <source>Llama 3</source>
        <translation>Llama 3</translation>
    </message>
    <message>
        <source>LongRoPE</source>
        <translation>LongRoPE</translation>
    </message>
    <message>
        <source>interpolated slopes</source>
        <translation>斜率内插</translation>
    </message>
    <message>
        <source>NTK-ALiBi</source>
        <translation>NTK-ALiBi</translation>
    </message>
    <message>
        <source>split halves</source>
        <translation>分为两半</translation>
    </message>
    <message>
        <source>d_nope %1</source>
        <translation>d_nope %1</translation>
    </message>
    <message>
        <source>d_rope %1</source>
        <translation>d_rope %1</translation>
    </message>
    <message>
        <source>%1 columns</source>
        <translation>%1 列</translation>
    </message>
    <message>
        <source>window %1</source>
        <translation>窗口 %1</translation>
    </message>
    <message>
        <source>%1 × %1 patches</source>
        <translation>%1 × %1 个图像块</translation>
    </message>
</context>
<context>
    <name>Cli</name>
    <message>
        <source>open the GUI (with a .posatlas.json session or a config.json)</source>
        <translation>打开图形界面（可带一个 .posatlas.json 会话或 config.json）</translation>
    </message>
    <message>
        <source>the command line</source>
        <translation>命令行</translation>
    </message>
    <message>
        <source>a command&apos;s options: meaning, default and allowed values</source>
        <translation>某个命令的选项：含义、默认值和允许的取值</translation>
    </message>
    <message>
        <source>commands:</source>
        <translation>命令：</translation>
    </message>
    <message>
        <source>options:</source>
        <translation>选项：</translation>
    </message>
    <message>
        <source>Progress of long commands goes to standard error, only when it is a terminal (--quiet: never); errors are one line on standard error. Exit status: 0 success, 2 bad input, 1 internal failure.</source>
        <translation>耗时较长的命令会把进度写到标准错误，且仅当它是终端时才写（--quiet：从不写）；错误信息在标准错误上占一行。退出状态：0 成功，2 输入有误，1 内部错误。</translation>
    </message>
    <message>
        <source>cannot write to standard output</source>
        <translation>无法写入标准输出</translation>
    </message>
    <message>
        <source>help takes a command (and for compute a quantity), or --all; see posatlas --help</source>
        <translation>help 后面跟一个命令（compute 还可再跟一个量），或 --all；参见 posatlas --help</translation>
    </message>
    <message>
        <source>unknown command &apos;%1&apos;; one of %2 (see posatlas --help)</source>
        <translation>未知命令“%1”；可用的命令有 %2（参见 posatlas --help）</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>out of memory; ask for a smaller window or length</source>
        <translation>内存不足；请缩小窗口或长度</translation>
    </message>
    <message>
        <source>internal error: %1</source>
        <translation>内部错误：%1</translation>
    </message>
    <message>
        <source>Prints the bash completion script (installed as /usr/share/bash-completion/completions/posatlas).</source>
        <translation>打印 bash 补全脚本（安装位置为 /usr/share/bash-completion/completions/posatlas）。</translation>
    </message>
    <message>
        <source>completion needs the shell: posatlas completion bash</source>
        <translation>completion 需要指明 shell：posatlas completion bash</translation>
    </message>
    <message>
        <source>First relative (or absolute) position.</source>
        <translation>第一个相对（或绝对）位置。</translation>
    </message>
    <message>
        <source>Last position (inclusive); --to - --from must be below 10000000.</source>
        <translation>最后一个位置（含）；--to 与 --from 之差必须小于 10000000。</translation>
    </message>
    <message>
        <source>Position m the query is rotated to (tokens).</source>
        <translation>查询向量被旋转到的位置 m（以词元计）。</translation>
    </message>
    <message>
        <source>Position n the key is rotated to (tokens).</source>
        <translation>键向量被旋转到的位置 n（以词元计）。</translation>
    </message>
    <message>
        <source>RoPE inverse frequencies, wavelengths, attention factor (and YaRN ramp)</source>
        <translation>RoPE 的逆频率、波长、注意力因子（以及 YaRN 斜坡）</translation>
    </message>
    <message>
        <source>RoFormer long-term decay bound and mean cos(r theta) for r = 0..R</source>
        <translation>RoFormer 的长程衰减上界，以及 r = 0..R 时 cos(r theta) 的均值</translation>
    </message>
    <message>
        <source>The largest relative distance R (tokens).</source>
        <translation>最大相对距离 R（以词元计）。</translation>
    </message>
    <message>
        <source>Sample N log-spaced distances in [0, R] instead of every integer (needed for R &gt;= 10000000).</source>
        <translation>在 [0, R] 内按对数间隔取 N 个距离，而不是取每个整数（R &gt;= 10000000 时必须给出）。</translation>
    </message>
    <message>
        <source>every distance</source>
        <translation>每个距离</translation>
    </message>
    <message>
        <source>q.k after rotating q to position m and k to position n (not divided by sqrt(d))</source>
        <translation>把 q 旋转到位置 m、把 k 旋转到位置 n 之后的 q.k（未除以 sqrt(d)）</translation>
    </message>
    <message>
        <source>The query vector q, head-dim numbers (sets --head-dim when neither it nor a model is given).</source>
        <translation>查询向量 q，共 head-dim 个数（既未给出 --head-dim 也未给出模型时，由它确定 --head-dim）。</translation>
    </message>
    <message>
        <source>The key vector k, head-dim numbers.</source>
        <translation>键向量 k，共 head-dim 个数。</translation>
    </message>
    <message>
        <source>rotation angle of every pair at a position (radians, mod 2 pi)</source>
        <translation>某个位置上每一对维度的旋转角（弧度，对 2 pi 取模）</translation>
    </message>
    <message>
        <source>The token position m.</source>
        <translation>词元位置 m。</translation>
    </message>
    <message>
        <source>per-pair table: theta, wavelength, scaled theta, ratio, regime, max angles (trained/target)</source>
        <translation>逐对表格：theta、波长、缩放后的 theta、比值、所处区间、最大旋转角（训练长度/目标长度）</translation>
    </message>
    <message>
        <source>The context the model was trained on (tokens).</source>
        <translation>模型训练时的上下文长度（以词元计）。</translation>
    </message>
    <message>
        <source>the model&apos;s original_max_position_embeddings</source>
        <translation>模型的 original_max_position_embeddings</translation>
    </message>
    <message>
        <source>The context it is extended to (tokens).</source>
        <translation>要扩展到的上下文长度（以词元计）。</translation>
    </message>
    <message>
        <source>the model&apos;s max_position_embeddings (trained length x factor)</source>
        <translation>模型的 max_position_embeddings（训练长度 x 缩放因子）</translation>
    </message>
    <message>
        <source>mean softmax entropy of the last query over N keys, with/without temperature</source>
        <translation>最后一个查询在 N 个键上的 softmax 熵的均值，分别给出有温度和无温度的结果</translation>
    </message>
    <message>
        <source>Context lengths N (tokens), each an integer in [1, %1], at most %2 of them, adding up to at most %3 / --trials.</source>
        <translation>上下文长度 N（以词元计），每个都是 [1, %1] 内的整数，最多 %2 个，总和不超过 %3 / --trials。</translation>
    </message>
    <message>
        <source>comma-separated integers</source>
        <translation>以逗号分隔的整数</translation>
    </message>
    <message>
        <source>Random query/key draws averaged per length.</source>
        <translation>每个长度上取平均的随机查询/键抽样次数。</translation>
    </message>
    <message>
        <source>Seed of the random queries and keys.</source>
        <translation>随机查询和键的种子。</translation>
    </message>
    <message>
        <source>ALiBi head slopes (Press et al.; scaled with --alibi-scaling)</source>
        <translation>ALiBi 各注意力头的斜率（Press 等人；用 --alibi-scaling 缩放）</translation>
    </message>
    <message>
        <source>T5 relative position -&gt; bucket (relative position = key - query)</source>
        <translation>T5 相对位置 -&gt; 桶（相对位置 = 键 - 查询）</translation>
    </message>
    <message>
        <source>DeBERTa log-bucketed relative positions</source>
        <translation>DeBERTa 按对数分桶的相对位置</translation>
    </message>
    <message>
        <source>sinusoidal encoding matrix, positions x dimensions</source>
        <translation>正弦位置编码矩阵，位置 x 维度</translation>
    </message>
    <message>
        <source>Number of positions (rows), from 0.</source>
        <translation>位置数（行数），从 0 开始。</translation>
    </message>
    <message>
        <source>learned absolute embeddings of positions --from..--to: the seeded table, --table FILE, or --weights CHECKPOINT.safetensors [--tensor NAME] as stored (null beyond the trained length)</source>
        <translation>位置 --from..--to 的可学习绝对位置嵌入：按种子生成的表、--table FILE，或 --weights CHECKPOINT.safetensors [--tensor NAME] 中存储的原值（超出训练长度处为 null）</translation>
    </message>
    <message>
        <source>a heatmap matrix of any method (--method, --kind logits|weights|bias|buckets|...)</source>
        <translation>任一方法的热力图矩阵（--method，--kind logits|weights|bias|buckets|...）</translation>
    </message>
    <message>
        <source>the method&apos;s first (most telling) kind</source>
        <translation>该方法的第一种（最能说明问题的）矩阵</translation>
    </message>
    <message>
        <source>First row (query position) of the window.</source>
        <translation>窗口的第一行（查询位置）。</translation>
    </message>
    <message>
        <source>First column (key position) of the window.</source>
        <translation>窗口的第一列（键位置）。</translation>
    </message>
    <message>
        <source>Rows of the window (positions).</source>
        <translation>窗口的行数（位置数）。</translation>
    </message>
    <message>
        <source>up to --seq-len</source>
        <translation>到 --seq-len 为止</translation>
    </message>
    <message>
        <source>Columns of the window (positions).</source>
        <translation>窗口的列数（位置数）。</translation>
    </message>
    <message>
        <source>Downsample the window to this many rows.</source>
        <translation>把窗口降采样到这么多行。</translation>
    </message>
    <message>
        <source>no downsampling</source>
        <translation>不降采样</translation>
    </message>
    <message>
        <source>Downsample the window to this many columns.</source>
        <translation>把窗口降采样到这么多列。</translation>
    </message>
    <message>
        <source>A downsampled cell is the exact mean of its block, or the single cell at its corner.</source>
        <translation>降采样后的一个单元格取其所在块的精确均值，或取块角上的那个单元格。</translation>
    </message>
    <message>
        <source>Arithmetic of the product: single rounds its factors to float32 and writes the float32 result (faster, shorter numbers, within the bound in docs/benchmarks.md).</source>
        <translation>乘积的运算精度：single 把因子舍入为 float32 并输出 float32 结果（更快，数字更短，误差在 docs/benchmarks.md 给出的界内）。</translation>
    </message>
    <message>
        <source>the model the options describe (preset or config, then each option), as a session&apos;s scenario</source>
        <translation>这些选项所描述的模型（先取预设或 config，再逐个应用选项），以会话中的场景形式给出</translation>
    </message>
    <message>
        <source>Output format.</source>
        <translation>输出格式。</translation>
    </message>
    <message>
        <source>csv when --out ends in .csv, else json</source>
        <translation>--out 以 .csv 结尾时为 csv，否则为 json</translation>
    </message>
    <message>
        <source>Write to FILE (replaced whole, only on success; its name is then printed) instead of standard output; - is standard output.</source>
        <translation>写入 FILE（整体替换，仅在成功时写入；随后打印文件名），而不是标准输出；- 表示标准输出。</translation>
    </message>
    <message>
        <source>a file name or -</source>
        <translation>文件名或 -</translation>
    </message>
    <message>
        <source>Options of %1</source>
        <translation>%1 的选项</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Other methods&apos; parameters</source>
        <translation>其他方法的参数</translation>
    </message>
    <message>
        <source>Accepted and ignored (they belong to other methods; posatlas compute matrix --help explains them):</source>
        <translation>接受但忽略（它们属于其他方法；posatlas compute matrix --help 对它们有说明）：</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>帮助</translation>
    </message>
    <message>
        <source>quantities:</source>
        <translation>量：</translation>
    </message>
    <message>
        <source>Every quantity takes --format json|csv, --out FILE|- and --quiet, and the model options: --preset or --config, then the parameters of its method (Hugging Face config keys with dashes; matrix takes --method and the parameters of every method).</source>
        <translation>每个量都接受 --format json|csv、--out FILE|- 和 --quiet，以及模型选项：--preset 或 --config，然后是其方法的参数（即 Hugging Face 配置键，下划线写作短横线；matrix 接受 --method 以及所有方法的参数）。</translation>
    </message>
    <message>
        <source>.</source>
        <translation>。</translation>
    </message>
    <message>
        <source>compute needs a QUANTITY: one of %1</source>
        <translation>compute 需要一个量（QUANTITY），可选 %1</translation>
    </message>
    <message>
        <source>unknown quantity &apos;%1&apos;; one of %2</source>
        <translation>未知的量“%1”；可选 %2</translation>
    </message>
    <message>
        <source>unexpected argument &apos;%1&apos;; options start with --</source>
        <translation>多余的参数“%1”；选项以 -- 开头</translation>
    </message>
    <message>
        <source>text: one line per preset (id, family, method, source); json: every field.</source>
        <translation>text：每个预设一行（id、系列、方法、来源）；json：全部字段。</translation>
    </message>
    <message>
        <source>Lists the shipped model presets (for --preset NAME).</source>
        <translation>列出随程序提供的模型预设（供 --preset NAME 使用）。</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>unexpected argument &apos;%1&apos;</source>
        <translation>多余的参数“%1”</translation>
    </message>
    <message>
        <source>Colours of background, axes and text.</source>
        <translation>背景、坐标轴和文字的配色。</translation>
    </message>
    <message>
        <source>Caption under the figure: auto (the model and its parameters), none, or the text given.</source>
        <translation>图下方的说明文字：auto（模型及其参数）、none，或给出的文字。</translation>
    </message>
    <message>
        <source>none (gallery: each figure&apos;s description)</source>
        <translation>无（gallery：每幅图自己的说明）</translation>
    </message>
    <message>
        <source>Scales every text of the figure.</source>
        <translation>缩放图中所有文字。</translation>
    </message>
    <message>
        <source>Heatmap colours; auto picks diverging for signed values, else viridis.</source>
        <translation>热力图配色；auto 对有正负号的值选发散色标，否则选 viridis。</translation>
    </message>
    <message>
        <source>Take the model and the view settings from a saved .posatlas.json session; options given beside it override it. Exclusive with --preset and --config.</source>
        <translation>从保存的 .posatlas.json 会话中取模型和视图设置；同时给出的选项会覆盖它。不能与 --preset 和 --config 同时使用。</translation>
    </message>
    <message>
        <source>a session file</source>
        <translation>会话文件</translation>
    </message>
    <message>
        <source>Heatmap: which matrix (logits, weights, encoding, bias, buckets, cope-positions, cope-gates), as the method offers them.</source>
        <translation>热力图：哪个矩阵（logits、weights、encoding、bias、buckets、cope-positions、cope-gates），视方法提供哪些而定。</translation>
    </message>
    <message>
        <source>the method&apos;s first kind</source>
        <translation>该方法的第一种矩阵</translation>
    </message>
    <message>
        <source>Heatmap and decay: 2 to 4 methods side by side, each with its own parameters (heatmap: one panel per method; decay: their logits against distance on shared axes).</source>
        <translation>热力图和衰减曲线：2 到 4 种方法并排比较，各用自己的参数（热力图：每种方法一个面板；衰减曲线：把它们的注意力分数随距离的变化画在同一坐标轴上）。</translation>
    </message>
    <message>
        <source>no comparison (or the session&apos;s)</source>
        <translation>不比较（或沿用会话中的设置）</translation>
    </message>
    <message>
        <source>2 to 4 distinct method ids, comma-separated</source>
        <translation>2 到 4 个互不相同的方法 id，以逗号分隔</translation>
    </message>
    <message>
        <source>Decay: the largest relative distance on the x axis (tokens).</source>
        <translation>衰减曲线：x 轴上的最大相对距离（以词元计）。</translation>
    </message>
    <message>
        <source>four times the model&apos;s context, or N - 1 if that is further; 64 to 100000000 (or the session&apos;s)</source>
        <translation>模型上下文长度的四倍，若 N - 1 更大则取 N - 1；范围 64 到 100000000（或沿用会话中的设置）</translation>
    </message>
    <message>
        <source>Decay: a linear distance axis instead of log.</source>
        <translation>衰减曲线：距离轴用线性刻度而非对数刻度。</translation>
    </message>
    <message>
        <source>Rotation: the query&apos;s position m (tokens).</source>
        <translation>旋转：查询的位置 m（以词元计）。</translation>
    </message>
    <message>
        <source>12 (or the session&apos;s)</source>
        <translation>12（或沿用会话中的设置）</translation>
    </message>
    <message>
        <source>Rotation: the key&apos;s position n (tokens).</source>
        <translation>旋转：键的位置 n（以词元计）。</translation>
    </message>
    <message>
        <source>4 (or the session&apos;s)</source>
        <translation>4（或沿用会话中的设置）</translation>
    </message>
    <message>
        <source>Rotation: the pair indices drawn.</source>
        <translation>旋转：要画的维度对的编号。</translation>
    </message>
    <message>
        <source>the first, quarter, middle and last pair</source>
        <translation>第一对、四分之一处、中间和最后一对</translation>
    </message>
    <message>
        <source>Heatmap: first row (query position) of the window.</source>
        <translation>热力图：窗口的第一行（查询位置）。</translation>
    </message>
    <message>
        <source>Heatmap: first column (key position) of the window.</source>
        <translation>热力图：窗口的第一列（键位置）。</translation>
    </message>
    <message>
        <source>Heatmap: rows of the window (positions).</source>
        <translation>热力图：窗口的行数（位置数）。</translation>
    </message>
    <message>
        <source>Heatmap: columns of the window (positions).</source>
        <translation>热力图：窗口的列数（位置数）。</translation>
    </message>
    <message>
        <source>from the --out extension</source>
        <translation>由 --out 的扩展名决定</translation>
    </message>
    <message>
        <source>View</source>
        <translation>视图</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>图</translation>
    </message>
    <message>
        <source>The folder for the figures (created if missing); one file per figure, named by it.</source>
        <translation>存放这些图的文件夹（不存在时会创建）；每幅图一个文件，以图名命名。</translation>
    </message>
    <message>
        <source>a folder name</source>
        <translation>文件夹名</translation>
    </message>
    <message>
        <source>The figures&apos; format.</source>
        <translation>这些图的格式。</translation>
    </message>
    <message>
        <source>Only the figures whose name contains TEXT.</source>
        <translation>只输出名称中含有 TEXT 的图。</translation>
    </message>
    <message>
        <source>every figure</source>
        <translation>所有图</translation>
    </message>
    <message>
        <source>Writes the standard set of figures (the user guide&apos;s gallery) into a folder.</source>
        <translation>把一套标准图（用户指南中的图库）写入一个文件夹。</translation>
    </message>
    <message>
        <source>required</source>
        <translation>必填</translation>
    </message>
    <message>
        <source>default: %1</source>
        <translation>默认值：%1</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>Show no progress. Progress goes to standard error, and only when it is a terminal.</source>
        <translation>不显示进度。进度写到标准错误，且仅当它是终端时才写。</translation>
    </message>
    <message>
        <source>:</source>
        <translation>：</translation>
    </message>
    <message>
        <source>text: one line per cached snapshot (model, revision, files); json: every field.</source>
        <translation>text：每个缓存的快照一行（模型、修订版本、文件）；json：全部字段。</translation>
    </message>
    <message>
        <source>Fetch only config.json, not the position tensors.</source>
        <translation>只下载 config.json，不下载位置张量。</translation>
    </message>
    <message>
        <source>Give up when the Hub sends nothing for this many seconds, or less than 1 KiB/s over that long.</source>
        <translation>若 Hub 在这么多秒内没有发来任何数据，或在这段时间内速度低于 1 KiB/s，就放弃。</translation>
    </message>
    <message>
        <source>No progress on standard error.</source>
        <translation>不在标准错误上显示进度。</translation>
    </message>
    <message>
        <source>Lists the models in the local Hugging Face cache (for --model ORG/NAME[@REV]): $HF_HUB_CACHE, else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub, the folders huggingface_hub writes (models--ORG--NAME/snapshots/COMMIT/).</source>
        <translation>列出本地 Hugging Face 缓存中的模型（供 --model ORG/NAME[@REV] 使用）：依次为 $HF_HUB_CACHE、$HF_HOME/hub、$XDG_CACHE_HOME/huggingface/hub、~/.cache/huggingface/hub，即 huggingface_hub 写入的文件夹（models--ORG--NAME/snapshots/COMMIT/）。</translation>
    </message>
    <message>
        <source>Fetches a model from the Hugging Face Hub into the local cache (see posatlas models), so that --model ORG/NAME opens it: its config.json, and only the bytes of the position tensors PosAtlas knows (GPT-2 wpe.weight, BERT and OPT position embeddings, T5 relative_attention_bias, DeBERTa rel_embeddings) read by HTTP range requests from model.safetensors or the shards its index names, never the whole checkpoint. They are stored as snapshots/COMMIT/posatlas-positions.safetensors. The endpoint is $HF_ENDPOINT (default https://huggingface.co); $HF_TOKEN is sent as a bearer token (gated and private models). Nothing is cached unless every request succeeded.</source>
        <translation>从 Hugging Face Hub 把一个模型下载到本地缓存（见 posatlas models），之后 --model ORG/NAME 就能打开它：下载它的 config.json，以及 PosAtlas 认识的位置张量（GPT-2 的 wpe.weight、BERT 和 OPT 的位置嵌入、T5 的 relative_attention_bias、DeBERTa 的 rel_embeddings）的字节；这些字节通过 HTTP 范围请求从 model.safetensors 或其索引所列的分片中读取，从不下载整个检查点。它们保存为 snapshots/COMMIT/posatlas-positions.safetensors。端点为 $HF_ENDPOINT（默认 https://huggingface.co）；$HF_TOKEN 作为 bearer 令牌发送（用于受限模型和私有模型）。只有所有请求都成功时才会写入缓存。</translation>
    </message>
    <message>
        <source>Rewrite each quoted number that differs from its computed value, at the same printed precision (lesson files only; the built-in course is checked, not rewritten).</source>
        <translation>把与计算值不符的引用数字按原来的打印精度改写（仅限课程文件；内置课程只检查，不改写）。</translation>
    </message>
    <message>
        <source>Computes every number a lesson quotes ([[0.034 = weights(2, 1)]]: the printed number, then what it is, evaluated on the step&apos;s own scenario) and compares it with the printed text at its printed precision. One line per number; exit status 2 when any differs or cannot be computed. Without files: the built-in course, every language. resources/lessons/README.md lists the functions.</source>
        <translation>计算课程中引用的每个数字（[[0.034 = weights(2, 1)]]：先是印出的数字，再是它代表什么，在该步骤自己的场景上求值），并按印出的精度与正文比较。每个数字一行；只要有一个不符或无法计算，退出状态为 2。不给文件时检查内置课程的所有语言版本。resources/lessons/README.md 列出了可用的函数。</translation>
    </message>
    <message>
        <source>Print this help (the options, their meaning, default and allowed values) and exit.</source>
        <translation>打印本帮助（各选项及其含义、默认值和允许的取值）后退出。</translation>
    </message>
    <message>
        <source>a number in [%1, %2]</source>
        <translation>[%1, %2] 内的数</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>一个数</translation>
    </message>
    <message>
        <source>comma-separated numbers, like 1,2.5,3</source>
        <translation>以逗号分隔的数，如 1,2.5,3</translation>
    </message>
    <message>
        <source>a file name</source>
        <translation>文件名</translation>
    </message>
    <message>
        <source>--%1 must be a finite number (got &apos;%2&apos;)</source>
        <translation>--%1 必须是有限数（当前为“%2”）</translation>
    </message>
    <message>
        <source>--%1 is given twice; give it once</source>
        <translation>--%1 给出了两次；只能给一次</translation>
    </message>
    <message>
        <source>unknown option --%1; this command accepts %2</source>
        <translation>未知选项 --%1；此命令接受 %2</translation>
    </message>
    <message>
        <source>--%1 needs a value</source>
        <translation>--%1 需要一个值</translation>
    </message>
    <message>
        <source>--%1 is a flag: give it alone or as --%1=true|false (got &apos;%2&apos;)</source>
        <translation>--%1 是开关：单独给出，或写成 --%1=true|false（当前为“%2”）</translation>
    </message>
    <message>
        <source>--%1 must be %2 (got &apos;%3&apos;)</source>
        <translation>--%1 必须是 %2（当前为“%3”）</translation>
    </message>
    <message>
        <source>--%1 must be a comma-separated list of numbers, like 1,2.5,3 (got &apos;%2&apos;)</source>
        <translation>--%1 必须是以逗号分隔的数列，如 1,2.5,3（当前为“%2”）</translation>
    </message>
    <message>
        <source>--%1 must be a sentence of 1 to %2 words (got &apos;%3&apos;)</source>
        <translation>--%1 必须是含 1 到 %2 个词的句子（当前为“%3”）</translation>
    </message>
    <message>
        <source>--seq-len must be %1, the number of tokens of --text, or be left out (got %2)</source>
        <translation>--seq-len 必须是 %1，即 --text 的词元数，或者不给出（当前为 %2）</translation>
    </message>
    <message>
        <source>--method must be one of %1 (got &apos;%2&apos;)</source>
        <translation>--method 必须是 %1 之一（当前为“%2”）</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>unset</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <comment>a parameter: its label, then its unit</comment>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>a parameter: its name, then what it means</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source> (%1: off)</source>
        <translation>（%1：关闭）</translation>
    </message>
    <message>
        <source>Start from a shipped model preset (posatlas presets lists them); options given beside it override its values.</source>
        <translation>从随程序提供的模型预设开始（posatlas presets 列出全部预设）；同时给出的选项会覆盖预设中的值。</translation>
    </message>
    <message>
        <source>Start from a Hugging Face config.json, or the metadata of a llama.cpp .gguf file (read as the equivalent config.json); options given beside it override its values. Exclusive with --preset.</source>
        <translation>从 Hugging Face 的 config.json，或 llama.cpp 的 .gguf 文件的元数据（按等价的 config.json 读取）开始；同时给出的选项会覆盖其中的值。不能与 --preset 同时使用。</translation>
    </message>
    <message>
        <source>a JSON or .gguf file</source>
        <translation>JSON 文件或 .gguf 文件</translation>
    </message>
    <message>
        <source>Start from a model in the local Hugging Face cache ($HF_HUB_CACHE, else $HF_HOME/hub, else ~/.cache/huggingface/hub; posatlas models lists it): its config.json exactly as --config would read it, and for learned absolute positions its cached weights (the known position tensor) unless --weights is given. Nothing is downloaded: posatlas download fetches a model. Exclusive with --preset and --config.</source>
        <translation>从本地 Hugging Face 缓存中的模型开始（依次查找 $HF_HUB_CACHE、$HF_HOME/hub、~/.cache/huggingface/hub；posatlas models 会列出它）：它的 config.json 与 --config 的读法完全相同；对可学习的绝对位置编码，除非给出 --weights，否则使用它缓存的权重（已知的位置张量）。不会下载任何东西：下载模型请用 posatlas download。不能与 --preset 和 --config 同时使用。</translation>
    </message>
    <message>
        <source>a cached model, like openai-community/gpt2 or org/name@revision</source>
        <translation>已缓存的模型，如 openai-community/gpt2 或 org/name@revision</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>The positional encoding (unless the preset or config names one).</source>
        <translation>位置编码方法（预设或 config 未指定时使用）。</translation>
    </message>
    <message>
        <source>the preset&apos;s or config&apos;s, else rope</source>
        <translation>预设或 config 中的方法，否则为 rope</translation>
    </message>
    <message>
        <source>%1 parameters (--method %2)</source>
        <translation>参数（%1，--method %2）</translation>
    </message>
    <message>
        <source>%1 parameters</source>
        <translation>参数（%1）</translation>
    </message>
    <message>
        <source>--preset, --config and --model are exclusive: give one model</source>
        <translation>--preset、--config 和 --model 不能同时使用：只给出一个模型</translation>
    </message>
    <message>
        <source>The folder for the screenshots (created if missing), PNG files named by what they show.</source>
        <translation>存放截图的文件夹（不存在时会创建），PNG 文件以所拍内容命名。</translation>
    </message>
    <message>
        <source>Take them all in the dark theme.</source>
        <translation>全部使用深色主题拍摄。</translation>
    </message>
    <message>
        <source>Takes the app&apos;s screenshots for the README and the user guide (main window, each view, the context-extension explorer), and a few more for reviewing the GUI, offscreen.</source>
        <translation>在屏幕外拍摄程序截图，供 README 和用户指南使用（主窗口、各视图、上下文扩展探索器），另外还有几张用于检查图形界面。</translation>
    </message>
    <message>
        <source>print numbers as JSON or CSV (compute --help lists the quantities)</source>
        <translation>打印数字，格式为 JSON 或 CSV（compute --help 列出所有的量）</translation>
    </message>
    <message>
        <source>one figure (PNG, SVG, PDF) or its numbers (CSV, JSON), without a display</source>
        <translation>一幅图（PNG、SVG、PDF）或图中的数字（CSV、JSON），不需要显示器</translation>
    </message>
    <message>
        <source>the standard set of figures into a folder</source>
        <translation>把一套标准图写入一个文件夹</translation>
    </message>
    <message>
        <source>the screenshots of the README and user guide</source>
        <translation>README 和用户指南中的截图</translation>
    </message>
    <message>
        <source>compute every number a lesson quotes and compare it with the text</source>
        <translation>计算课程中引用的每个数字，并与正文比较</translation>
    </message>
    <message>
        <source>list the shipped model presets</source>
        <translation>列出随程序提供的模型预设</translation>
    </message>
    <message>
        <source>list the models in the local Hugging Face cache (for --model ORG/NAME)</source>
        <translation>列出本地 Hugging Face 缓存中的模型（供 --model ORG/NAME 使用）</translation>
    </message>
    <message>
        <source>fetch a model&apos;s config.json and position tensors from the Hugging Face Hub</source>
        <translation>从 Hugging Face Hub 下载模型的 config.json 和位置张量</translation>
    </message>
    <message>
        <source>print the bash completion script</source>
        <translation>打印 bash 补全脚本</translation>
    </message>
    <message>
        <source>this help, or a command&apos;s; help --all: every command&apos;s and quantity&apos;s</source>
        <translation>本帮助，或某个命令的帮助；help --all：所有命令和所有量的帮助</translation>
    </message>
    <message>
        <source>print this help and exit</source>
        <translation>打印本帮助并退出</translation>
    </message>
    <message>
        <source>print the version and exit</source>
        <translation>打印版本号并退出</translation>
    </message>
    <message>
        <source>Try it without installing: </source>
        <translation>不安装也可以试用：</translation>
    </message>
    <message>
        <source>Each quantity&apos;s options (meaning, default, allowed values): </source>
        <translation>每个量的选项（含义、默认值、允许的取值）：</translation>
    </message>
    <message>
        <source>%1 [%2]</source>
        <comment>an option&apos;s meaning, then its allowed values and default</comment>
        <translation>%1［%2］</translation>
    </message>
    <message>
        <source>usage: </source>
        <translation>用法：</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>--out %1: unknown extension; use one of %2 (or --out - --format FORMAT)</source>
        <translation>--out %1：扩展名未知；请使用 %2 之一（或 --out - --format FORMAT）</translation>
    </message>
    <message>
        <source>--out FILE is required (.png, .svg, .pdf, .csv or .json, or - with --format)</source>
        <translation>必须给出 --out FILE（.png、.svg、.pdf、.csv 或 .json，或者 - 加 --format）</translation>
    </message>
    <message>
        <source>--out - needs --format: one of png|svg|pdf|csv|json</source>
        <translation>--out - 需要 --format：png|svg|pdf|csv|json 之一</translation>
    </message>
    <message>
        <source>--format %1 does not match the extension of --out %2</source>
        <translation>--format %1 与 --out %2 的扩展名不符</translation>
    </message>
    <message>
        <source>--out %1: unknown extension; use one of %2</source>
        <translation>--out %1：扩展名未知；请使用 %2 之一</translation>
    </message>
    <message>
        <source>--session is exclusive with --preset, --config and --model</source>
        <translation>--session 不能与 --preset、--config 和 --model 同时使用</translation>
    </message>
    <message>
        <source>warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>--kind must be one of %1 (got &apos;%2&apos;)</source>
        <translation>--kind 必须是 %1 之一（当前为“%2”）</translation>
    </message>
    <message>
        <source>--out -: cannot create a temporary folder (%1)</source>
        <translation>--out -：无法创建临时文件夹（%1）</translation>
    </message>
    <message>
        <source>computing and drawing</source>
        <translation>计算并绘图</translation>
    </message>
    <message>
        <source>writing</source>
        <translation>写入</translation>
    </message>
    <message>
        <source>--out -: cannot read back the temporary file (%1)</source>
        <translation>--out -：无法读回临时文件（%1）</translation>
    </message>
    <message>
        <source>--out DIR is required: the folder for the figures (created if missing)</source>
        <translation>必须给出 --out DIR：存放这些图的文件夹（不存在时会创建）</translation>
    </message>
    <message>
        <source>--out %1: cannot create the folder</source>
        <translation>--out %1：无法创建该文件夹</translation>
    </message>
    <message>
        <source>--only %1 matches no gallery figure</source>
        <translation>--only %1 与图库中的任何图都不匹配</translation>
    </message>
    <message>
        <source>download takes one model, like posatlas download openai-community/gpt2</source>
        <translation>download 只接受一个模型，例如 posatlas download openai-community/gpt2</translation>
    </message>
    <message>
        <source>%1: %2 / %3 bytes</source>
        <translation>%1：%2 / %3 字节</translation>
    </message>
    <message>
        <source>%1: %2 bytes</source>
        <translation>%1：%2 字节</translation>
    </message>
    <message>
        <source>lesson takes the action &apos;check&apos; (posatlas lesson check [--update] [FILE.md ...])</source>
        <translation>lesson 只接受操作 check（posatlas lesson check [--update] [FILE.md ...]）</translation>
    </message>
    <message>
        <source>--update rewrites lesson files: name them (resources/lessons/*/*.md)</source>
        <translation>--update 会改写课程文件：请指明这些文件（resources/lessons/*/*.md）</translation>
    </message>
    <message>
        <source>--from and --to are required: the range of relative positions, e.g. --from -64 --to 64</source>
        <translation>必须给出 --from 和 --to：相对位置的范围，例如 --from -64 --to 64</translation>
    </message>
    <message>
        <source>--to must be &gt;= --from (got --from %1 --to %2)</source>
        <translation>--to 必须 &gt;= --from（当前为 --from %1 --to %2）</translation>
    </message>
    <message>
        <source>--to - --from must be &lt; 10000000 (got %1)</source>
        <translation>--to 与 --from 之差必须 &lt; 10000000（当前为 %1）</translation>
    </message>
    <message>
        <source>--max-distance is required: the largest relative distance r, in [0, %1]</source>
        <translation>必须给出 --max-distance：最大相对距离 r，范围 [0, %1]</translation>
    </message>
    <message>
        <source>--max-distance above 9999999 needs --points N (a log-spaced sample of N distances)</source>
        <translation>--max-distance 超过 9999999 时需要 --points N（按对数间隔取 N 个距离）</translation>
    </message>
    <message>
        <source>--%1 is required: a comma-separated vector of head-dim numbers</source>
        <translation>必须给出 --%1：以逗号分隔的向量，共 head-dim 个数</translation>
    </message>
    <message>
        <source>--query and --key must each have head-dim = %1 numbers (got %2 and %3)</source>
        <translation>--query 和 --key 都必须恰好有 head-dim = %1 个数（当前为 %2 个和 %3 个）</translation>
    </message>
    <message>
        <source>--query and --key give a score that overflows a double: the product of their lengths |q| * |k| must stay below about 1.8e308 (use smaller entries)</source>
        <translation>--query 和 --key 的分数超出了 double 的范围：两者长度之积 |q| * |k| 必须小于约 1.8e308（请用更小的分量）</translation>
    </message>
    <message>
        <source>--position is required: the token position m</source>
        <translation>必须给出 --position：词元位置 m</translation>
    </message>
    <message>
        <source>--length is required: the number of positions, in [1, %1]</source>
        <translation>必须给出 --length：位置数，范围 [1, %1]</translation>
    </message>
    <message>
        <source>--from must be &gt;= 0 for absolute positions (got %1)</source>
        <translation>对绝对位置，--from 必须 &gt;= 0（当前为 %1）</translation>
    </message>
    <message>
        <source>--kind must be one of %1 for method %2 (got &apos;%3&apos;)</source>
        <translation>对方法 %2，--kind 必须是 %1 之一（当前为“%3”）</translation>
    </message>
    <message>
        <source>--lengths is required: context lengths N, comma-separated, each in [1, %1], e.g. 256,1024,4096</source>
        <translation>必须给出 --lengths：上下文长度 N，以逗号分隔，每个都在 [1, %1] 内，例如 256,1024,4096</translation>
    </message>
    <message>
        <source>--lengths must be integers in [1, %1] (got %2)</source>
        <translation>--lengths 必须是 [1, %1] 内的整数（当前为 %2）</translation>
    </message>
    <message>
        <source>--lengths must list at most %1 lengths (got %2)</source>
        <translation>--lengths 最多列出 %1 个长度（当前为 %2 个）</translation>
    </message>
    <message>
        <source>--lengths must add up to at most %1 with --trials %2 (got %3; the limit is %4 keys x trials, about a minute)</source>
        <translation>在 --trials %2 下，--lengths 之和最多为 %1（当前为 %3；上限是键数 x 抽样次数 = %4，约需一分钟）</translation>
    </message>
    <message>
        <source>--out: cannot encode %1</source>
        <translation>--out：无法编码 %1</translation>
    </message>
    <message>
        <source>--out DIR is required: the folder for the screenshots</source>
        <translation>必须给出 --out DIR：存放截图的文件夹</translation>
    </message>
    <message>
        <source>M-RoPE position ids (t, h, w) and kind of every token of --token-layout, then text up to --seq-len (Qwen2-VL get_rope_index)</source>
        <translation>M-RoPE 中 --token-layout 每个词元的类别与位置编号 (t, h, w)，其后直到 --seq-len 为文本（Qwen2-VL get_rope_index）</translation>
    </message>
    <message>
        <source>An animation instead of a still figure: FIELD moves from FROM to TO (geometric steps with :log). FIELD is a parameter of the method (rope_theta or --rope-theta&apos;s name, seq_len, ...) or, for the rotation view, query_position or key_position. --out .mp4, .gif or .apng (.png).</source>
        <translation>输出动画而不是静态图：FIELD 从 FROM 变到 TO（加 :log 时按等比步长）。FIELD 是该方法的一个参数（rope_theta 或选项名 rope-theta、seq_len 等），旋转视图还可以是 query_position 或 key_position。--out 用 .mp4、.gif 或 .apng（.png）。</translation>
    </message>
    <message>
        <source>a still figure</source>
        <translation>静态图</translation>
    </message>
    <message>
        <source>FIELD=FROM:TO[:log|:linear]</source>
        <translation>FIELD=FROM:TO[:log|:linear]</translation>
    </message>
    <message>
        <source>Animation: the number of frames, both ends of the sweep included.</source>
        <translation>动画：帧数，参数变化的起点和终点都包括在内。</translation>
    </message>
    <message>
        <source>Animation: frames per second (GIF: at most 50).</source>
        <translation>动画：帧率，每秒帧数（GIF 最多 50）。</translation>
    </message>
    <message>
        <source>Animation: each frame its own colour scale and axes. By default they are fixed over the whole sweep, so that the colours and curves show the change.</source>
        <translation>动画：每一帧使用自己的颜色标尺和坐标轴。默认情况下它们在整个变化过程中保持不变，这样颜色和曲线才能反映出变化。</translation>
    </message>
    <message>
        <source>--%1 needs --animate FIELD=FROM:TO</source>
        <translation>--%1 需要与 --animate FIELD=FROM:TO 一起使用</translation>
    </message>
    <message>
        <source>--format %1 needs --animate FIELD=FROM:TO</source>
        <translation>--format %1 需要与 --animate FIELD=FROM:TO 一起使用</translation>
    </message>
    <message>
        <source>--format %1 is not an animation format; with --animate give mp4, gif or apng</source>
        <translation>--format %1 不是动画格式；使用 --animate 时请给出 mp4、gif 或 apng</translation>
    </message>
    <message>
        <source>--out - needs --format: one of mp4|gif|apng with --animate</source>
        <translation>--out - 需要 --format：使用 --animate 时为 mp4|gif|apng 之一</translation>
    </message>
    <message>
        <source>--out %1: unknown extension for an animation; use .mp4, .gif or .apng (.png)</source>
        <translation>--out %1：不是动画的扩展名；请使用 .mp4、.gif 或 .apng（.png）</translation>
    </message>
    <message>
        <source>The file to write, its format from the extension (.png, .svg, .pdf: the figure; .csv, .json: its numbers; with --animate .mp4, .gif, .apng or .png); - writes the bytes to standard output (then give --format).</source>
        <translation>要写入的文件，格式由扩展名决定（.png、.svg、.pdf：图；.csv、.json：图中的数字；使用 --animate 时为 .mp4、.gif、.apng 或 .png）；- 表示把字节写到标准输出（此时需给出 --format）。</translation>
    </message>
    <message>
        <source>The format, needed with --out - (mp4, gif, apng with --animate).</source>
        <translation>格式，与 --out - 一起使用时必须给出（使用 --animate 时为 mp4、gif、apng）。</translation>
    </message>
    <message>
        <source>Animation</source>
        <translation>动画</translation>
    </message>
    <message>
        <source>Renders one figure (PNG, SVG, PDF) or writes its numbers (CSV, JSON) without a display, as the GUI&apos;s Export does; with --animate, an animation of the figure as one parameter moves (MP4, GIF, APNG).</source>
        <translation>不需要显示器，绘制一幅图（PNG、SVG、PDF）或写出图中的数字（CSV、JSON），与图形界面中的“导出”相同；使用 --animate 时，输出这幅图随一个参数变化的动画（MP4、GIF、APNG）。</translation>
    </message>
    <message>
        <source>Figure width in CSS pixels (1/96 inch). With --animate: 1280 by default.</source>
        <translation>图宽，单位为 CSS 像素（1/96 英寸）。使用 --animate 时默认为 1280。</translation>
    </message>
    <message>
        <source>Figure height in CSS pixels. With --animate: 720 by default.</source>
        <translation>图高，单位为 CSS 像素。使用 --animate 时默认为 720。</translation>
    </message>
    <message>
        <source>PNG resolution: pixels = size x dpi / 96 (192 = twice the size). With --animate: 96 by default (frames of 1280 x 720 pixels).</source>
        <translation>PNG 分辨率：像素数 = 尺寸 x dpi / 96（192 即两倍尺寸）。使用 --animate 时默认为 96（每帧 1280 x 720 像素）。</translation>
    </message>
    <message>
        <source>a model config&apos;s import report and the anatomy of every layer</source>
        <translation>模型配置的导入报告，以及每一层的构成</translation>
    </message>
    <message>
        <source>train a small transformer with an encoding, measure it at longer lengths</source>
        <translation>用一种位置编码训练一个小型 Transformer，并在更长的长度上测量它</translation>
    </message>
    <message>
        <source>text: the report as sections, alike layers on one line; json: every field, and the full per-layer table.</source>
        <translation>text：按小节输出报告，相同的层合并为一行；json：输出全部字段和完整的逐层表格。</translation>
    </message>
    <message>
        <source>Prints the import report of a model, the one the window shows after File &gt; Open Model: the keys read, the parameters they became, the positional keys read but not modelled, the keys not recognised and the notes, then every layer&apos;s attention (global, sliding window of W keys, chunks of C) and positional encoding (RoPE with its base and scaling, or NoPE). FILE is a config.json, a .gguf file or a folder holding config.json; ORG/NAME is a model in the local Hugging Face cache. Diff the output of two models or of two transformers versions of one config.</source>
        <translation>输出模型的导入报告，与窗口中“文件 &gt; 打开模型”之后显示的报告相同：读取了哪些键、它们成为哪些参数、已读取但尚未建模的位置相关键、无法识别的键和说明，然后列出每一层的注意力（全局、W 个键的滑动窗口、长度为 C 的分块）和位置编码（RoPE 及其基数与缩放，或 NoPE）。FILE 可以是 config.json、.gguf 文件或包含 config.json 的文件夹；ORG/NAME 是本地 Hugging Face 缓存中的模型。对两个模型、或同一配置在两个 transformers 版本下的输出做 diff，即可比较它们。</translation>
    </message>
    <message>
        <source>inspect takes one config.json, .gguf file, folder or ORG/NAME</source>
        <translation>inspect 需要一个 config.json、.gguf 文件、文件夹或 ORG/NAME</translation>
    </message>
    <message>
        <source>Model type %1 -&gt; method %2</source>
        <translation>模型类型 %1 -&gt; 方法 %2</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>已读取</translation>
    </message>
    <message>
        <source>What they became</source>
        <translation>对应的参数</translation>
    </message>
    <message>
        <source>Read, not modelled yet (about positions)</source>
        <translation>已读取，尚未建模（与位置有关）</translation>
    </message>
    <message>
        <source>Not recognised</source>
        <translation>无法识别</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Layers (%1)</source>
        <translation>各层（共 %1 层）</translation>
    </message>
    <message>
        <source>Receptive field of position %1 (the last of the context)</source>
        <translation>位置 %1（上下文的最后一个位置）的感受野</translation>
    </message>
    <message>
        <source>The run folder to create (it must not hold a run).</source>
        <translation>要创建的运行文件夹（其中不能已有一次运行）。</translation>
    </message>
    <message>
        <source>The positional encoding, as core defines it.</source>
        <translation>位置编码方法，采用核心库中的定义。</translation>
    </message>
    <message>
        <source>Tokens per training sequence.</source>
        <translation>每条训练序列的词元数。</translation>
    </message>
    <message>
        <source>Optimizer steps.</source>
        <translation>优化器的步数。</translation>
    </message>
    <message>
        <source>Seed of the initial weights and of the training sequences.</source>
        <translation>初始权重和训练序列的种子。</translation>
    </message>
    <message>
        <source>Transformer blocks.</source>
        <translation>Transformer 块的层数。</translation>
    </message>
    <message>
        <source>Width of the residual stream.</source>
        <translation>残差流的宽度。</translation>
    </message>
    <message>
        <source>Attention heads (they divide --d-model).</source>
        <translation>注意力头数（须整除 --d-model）。</translation>
    </message>
    <message>
        <source>Hidden width of the MLP in multiples of --d-model.</source>
        <translation>MLP 隐藏层宽度，以 --d-model 的倍数计。</translation>
    </message>
    <message>
        <source>Letters of the task.</source>
        <translation>任务所用的字母数。</translation>
    </message>
    <message>
        <source>Sequences per step.</source>
        <translation>每一步的序列数。</translation>
    </message>
    <message>
        <source>Peak learning rate of AdamW.</source>
        <translation>AdamW 的峰值学习率。</translation>
    </message>
    <message>
        <source>Steps of linear warm-up before the cosine decay.</source>
        <translation>余弦衰减之前线性预热的步数。</translation>
    </message>
    <message>
        <source>AdamW weight decay of the matrices.</source>
        <translation>AdamW 对权重矩阵的权重衰减。</translation>
    </message>
    <message>
        <source>CPU threads (the same seed and thread count give the same metrics).</source>
        <translation>CPU 线程数（种子和线程数相同，指标就相同）。</translation>
    </message>
    <message>
        <source>Steps per line of metrics.jsonl.</source>
        <translation>metrics.jsonl 每写一行所隔的步数。</translation>
    </message>
    <message>
        <source>Steps between checkpoints (model.safetensors).</source>
        <translation>两次检查点（model.safetensors）之间的步数。</translation>
    </message>
    <message>
        <source>RoPE and xPos base.</source>
        <translation>RoPE 和 xPos 的基数。</translation>
    </message>
    <message>
        <source>RoPE pairing: half (GPT-NeoX, Hugging Face) or interleaved (RoFormer, GPT-J).</source>
        <translation>RoPE 的配对方式：half（GPT-NeoX、Hugging Face）或 interleaved（RoFormer、GPT-J）。</translation>
    </message>
    <message>
        <source>Fraction of each head&apos;s components that RoPE rotates.</source>
        <translation>每个注意力头中由 RoPE 旋转的分量所占的比例。</translation>
    </message>
    <message>
        <source>Rows of the learned table (0: --train-len).</source>
        <translation>可学习位置表的行数（0：取 --train-len）。</translation>
    </message>
    <message>
        <source>T5 relative buckets.</source>
        <translation>T5 相对位置桶的个数。</translation>
    </message>
    <message>
        <source>T5 distance of the last bucket.</source>
        <translation>T5 最后一个桶对应的距离。</translation>
    </message>
    <message>
        <source>xPos gamma.</source>
        <translation>xPos 的 gamma。</translation>
    </message>
    <message>
        <source>CoPE position embeddings per layer.</source>
        <translation>每层 CoPE 位置嵌入的个数。</translation>
    </message>
    <message>
        <source>Sequence lengths to evaluate, comma-separated.</source>
        <translation>要评估的序列长度，以逗号分隔。</translation>
    </message>
    <message>
        <source>Test sequences per length.</source>
        <translation>每个长度上的测试序列数。</translation>
    </message>
    <message>
        <source>Seed of the test sequences.</source>
        <translation>测试序列的种子。</translation>
    </message>
    <message>
        <source>RoPE scaling applied at test time (RoPE runs only); the trained length is original_max_position_embeddings.</source>
        <translation>测试时施加的 RoPE 缩放（仅用于 RoPE 的运行）；训练长度即 original_max_position_embeddings。</translation>
    </message>
    <message>
        <source>ALiBi scaling at test time (ALiBi runs only).</source>
        <translation>测试时施加的 ALiBi 缩放（仅用于 ALiBi 的运行）。</translation>
    </message>
    <message>
        <source>CPU threads.</source>
        <translation>CPU 线程数。</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>cancelled; %1 holds the last checkpoint, step %2 of %3</source>
        <translation>已取消；%1 中保存着最后一个检查点，第 %2 步（共 %3 步）</translation>
    </message>
    <message>
        <source>note: the run is %1 (step %2 of %3); its last checkpoint is evaluated</source>
        <translation>注意：这次运行的状态为 %1（第 %2 步，共 %3 步）；评估的是它最后一个检查点</translation>
    </message>
    <message>
        <source>length</source>
        <translation>长度</translation>
    </message>
    <message>
        <source>answer accuracy</source>
        <translation>答案准确率</translation>
    </message>
    <message>
        <source>not defined (beyond the learned table)</source>
        <translation>无定义（超出可学习位置表）</translation>
    </message>
    <message>
        <source>Training options (lab train)</source>
        <translation>训练选项（lab train）</translation>
    </message>
    <message>
        <source>Evaluation options (lab eval)</source>
        <translation>评估选项（lab eval）</translation>
    </message>
    <message>
        <source>lab train takes no run folder argument; name it with --out</source>
        <translation>lab train 不接受运行文件夹参数；请用 --out 指定</translation>
    </message>
    <message>
        <source>lab eval takes one run folder (posatlas lab eval DIR)</source>
        <translation>lab eval 只接受一个运行文件夹（posatlas lab eval DIR）</translation>
    </message>
    <message>
        <source>the lab is not installed: posatlas-lab was found neither beside posatlas nor in its libexec folder (a build without LibTorch)</source>
        <translation>实验室没有安装：在 posatlas 旁边和它的 libexec 文件夹里都找不到 posatlas-lab（构建时没有 LibTorch）</translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>complete, reused</source>
        <translation>已完成，直接复用</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练中</translation>
    </message>
    <message>
        <source>evaluating</source>
        <translation>评估中</translation>
    </message>
    <message>
        <source>The sweep&apos;s folder: one run folder per method and seed, the table (sweep.csv, sweep.json) and the figure (sweep.png, sweep.svg).</source>
        <translation>扫描的文件夹：每个方法和种子一个运行文件夹，还有表格（sweep.csv、sweep.json）和图（sweep.png、sweep.svg）。</translation>
    </message>
    <message>
        <source>The positional encodings, comma-separated.</source>
        <translation>位置编码，用逗号分隔。</translation>
    </message>
    <message>
        <source>Runs per method, with seeds 0, 1, ...</source>
        <translation>每个方法的运行次数，种子依次为 0、1、……</translation>
    </message>
    <message>
        <source>Sequence lengths to evaluate, increasing, comma-separated.</source>
        <translation>要评估的序列长度，递增，用逗号分隔。</translation>
    </message>
    <message>
        <source>Sweep options (lab sweep; the training options of lab train too, but --method and --seed)</source>
        <translation>扫描选项（lab sweep；也接受 lab train 的训练选项，--method 和 --seed 除外）</translation>
    </message>
    <message>
        <source>lab takes the action &apos;train&apos;, &apos;eval&apos;, &apos;sweep&apos; or &apos;probe&apos; (see posatlas lab --help)</source>
        <translation>lab 接受的动作是 &apos;train&apos;、&apos;eval&apos;、&apos;sweep&apos; 或 &apos;probe&apos;（见 posatlas lab --help）</translation>
    </message>
    <message>
        <source>core&apos;s logits from these sessions equal the model&apos;s scores within %1 (relative, float32 rounding); open a session in the app: File &gt; Open Session</source>
        <translation>由这些会话用核心代码算出的 logit 与模型自己的注意力分数相差不超过 %1（相对误差，float32 舍入）；在应用中打开会话：文件 &gt; 打开会话</translation>
    </message>
    <message>
        <source>lab probe takes one run folder (posatlas lab probe DIR --out DIR)</source>
        <translation>lab probe 只接受一个运行文件夹（posatlas lab probe DIR --out DIR）</translation>
    </message>
    <message>
        <source>The folder to write the probe into (new or empty): probe.safetensors and one session per head, head-H.posatlas.json, to open in the app.</source>
        <translation>写入探针结果的文件夹（新建或为空）：probe.safetensors，以及每个注意力头一个会话文件 head-H.posatlas.json，可在应用中打开。</translation>
    </message>
    <message>
        <source>Tokens of the input: one evaluation sequence of the run&apos;s task.</source>
        <translation>输入的词元数：该运行所训练任务的一条评估序列。</translation>
    </message>
    <message>
        <source>The attention layer, from 0.</source>
        <translation>注意力层编号，从 0 开始。</translation>
    </message>
    <message>
        <source>fine-tuned before evaluation: %1 steps at length %2 (peak lr %3, loss of the last steps %4); the run folder is unchanged</source>
        <translation>评估前先做了微调：在长度 %2 上训练 %1 步（峰值学习率 %3，最后几步的损失 %4）；运行文件夹未作改动</translation>
    </message>
    <message>
        <source>the fine-tuned model is in %1</source>
        <translation>微调后的模型保存在 %1</translation>
    </message>
    <message>
        <source>Scaling factor of --rope-type (longrope: max_position_embeddings = trained length x factor, which sets the attention factor).</source>
        <translation>--rope-type 的缩放因子（longrope：max_position_embeddings = 训练长度 × 缩放因子，由它决定注意力因子）。</translation>
    </message>
    <message>
        <source>LongRoPE (--rope-type longrope): one divisor per rotary frequency pair of the run&apos;s model (rotary dimensions / 2), used at lengths beyond the trained length.</source>
        <translation>LongRoPE（--rope-type longrope）：该运行的模型每个旋转频率对一个除数（个数为旋转维数 / 2），用于超出训练长度的序列。</translation>
    </message>
    <message>
        <source>LongRoPE: one divisor per rotary frequency pair, used up to the trained length.</source>
        <translation>LongRoPE：每个旋转频率对一个除数，用于不超过训练长度的序列。</translation>
    </message>
    <message>
        <source>1 for every pair</source>
        <translation>每个频率对都取 1</translation>
    </message>
    <message>
        <source>Fine-tune the run for this many steps at --finetune-len before the evaluation, with the test-time scaling active (as the PI and YaRN papers do); in memory, the run folder is not changed.</source>
        <translation>评估之前，在 --finetune-len 长度上把该运行微调这么多步，微调时已启用测试时的缩放（与 PI 和 YaRN 论文的做法相同）；微调只在内存中进行，运行文件夹不会改动。</translation>
    </message>
    <message>
        <source>the run&apos;s --lr / 15, the PI paper&apos;s ratio</source>
        <translation>该运行的 --lr / 15，即 PI 论文采用的比例</translation>
    </message>
    <message>
        <source>Also save the fine-tuned model as a new run folder (it must not hold a run).</source>
        <translation>同时把微调后的模型另存为一个新的运行文件夹（其中不能已有一次运行）。</translation>
    </message>
    <message>
        <source>Tokens per fine-tune sequence, in batches of the run&apos;s --batch (within the memory budget).</source>
        <translation>微调时每个序列的词元数，每批的序列数沿用该运行的 --batch（须在内存预算之内）。</translation>
    </message>
    <message>
        <source>Peak learning rate of the fine-tune (AdamW as in training, warm-up over a tenth of the steps but at most the run&apos;s --warmup, cosine decay to 0).</source>
        <translation>微调的峰值学习率（与训练一样使用 AdamW；先在十分之一的步数上预热，但不超过该运行的 --warmup，再余弦衰减到 0）。</translation>
    </message>
    <message>
        <source>How the training shows its progress on standard error: bar (on a terminal) or jsonl (one JSON object per logged step: step, steps, loss, accuracy, seconds, seconds_left; for programs).</source>
        <translation>训练进度在标准错误上的显示方式：bar（在终端上显示进度条）或 jsonl（每个记录步输出一个 JSON 对象：step、steps、loss、accuracy、seconds、seconds_left；供程序读取）。</translation>
    </message>
    <message>
        <source>Probe options (lab probe; --seed and the scalings of lab eval too)</source>
        <translation>探针选项（lab probe；也接受 lab eval 的 --seed 和各种缩放）</translation>
    </message>
    <message>
        <source>training perplexity</source>
        <translation>训练困惑度</translation>
    </message>
    <message>
        <source>perplexity</source>
        <translation>困惑度</translation>
    </message>
    <message>
        <source>bits per character</source>
        <translation>每字符比特数</translation>
    </message>
    <message>
        <source>The task: copy a string, recall the value of a key, complete an induction pattern (synthetic), or lm: predict the next character of a text corpus (--corpus), reported as perplexity.</source>
        <translation>任务：照抄字符串、回忆某个键对应的值、补全归纳模式（以上为合成任务），或 lm：预测文本语料（--corpus）中的下一个字符，结果以困惑度报告。</translation>
    </message>
    <message>
        <source>lm: the text, a UTF-8 file or a folder of .md and .txt files (README.md excepted); the last tenth of each file is held out for evaluation.</source>
        <translation>lm：所用文本，可以是一个 UTF-8 文件，也可以是一个存放 .md 和 .txt 文件的文件夹（README.md 除外）；每个文件的最后十分之一留作评估，不参与训练。</translation>
    </message>
    <message>
        <source>the built-in course (resources/lessons)</source>
        <translation>内置课程（resources/lessons）</translation>
    </message>
    <message>
        <source>lm: the model&apos;s vocabulary size; 0 takes the corpus&apos;s characters and one id for unknown characters.</source>
        <translation>lm：模型的词表大小；取 0 时，词表由语料中出现的全部字符再加一个“未知字符”编号组成。</translation>
    </message>
    <message>
        <source>lm runs: where to read the run&apos;s corpus (the same files: config.json records their names and hash; another corpus is refused).</source>
        <translation>lm 运行：从哪里读取该运行的语料（必须是同一批文件：config.json 记录了文件名和哈希值；换成别的语料会被拒绝）。</translation>
    </message>
    <message>
        <source>the run&apos;s own (config.json)</source>
        <translation>该运行自己的语料（见 config.json）</translation>
    </message>
    <message>
        <source>The extrapolation lab: train trains a small decoder-only transformer (pre-LayerNorm, causal, AdamW with warm-up and cosine decay) on a synthetic task, or on a text corpus&apos;s characters (lm, measured as perplexity), with one positional encoding and writes the run folder (model.safetensors, config.json, metrics.jsonl, command.txt), showing loss and time left on a terminal; Ctrl+C keeps the last checkpoint. eval measures a run&apos;s answer accuracy (lm: held-out perplexity) at other lengths, optionally with a RoPE or ALiBi scaling applied at test time (LongRoPE with --long-factor) and after a short fine-tune at a longer length with that scaling active (--finetune-steps, --finetune-len); a length beyond a learned table is reported as not defined. probe writes a run&apos;s attention on one input of any length as sessions for the app: opened there, every view shows the trained model&apos;s own queries, keys and logits. docs/lab.md explains the lab.</source>
        <translation>外推实验室：train 用一种位置编码在合成任务上（或在文本语料的字符上：lm 任务，用困惑度衡量）训练一个小型仅解码器 Transformer（前置 LayerNorm、因果掩码、带预热和余弦衰减的 AdamW），写出运行文件夹（model.safetensors、config.json、metrics.jsonl、command.txt），在终端上显示损失和剩余时间；按 Ctrl+C 会保留最后一个检查点。eval 在其他长度上测量一次运行的答案准确率（lm 任务测量留出文本的困惑度），可在测试时施加 RoPE 或 ALiBi 缩放（LongRoPE 用 --long-factor 给出因子），还可以先在更长的长度上、在启用该缩放的情况下做一次简短微调（--finetune-steps、--finetune-len）；超出可学习位置表的长度报告为无定义。probe 把一次运行在任意长度的一条输入上的注意力写成会话文件：在应用中打开后，每个视图显示的都是训练好的模型自己的查询、键和 logit。docs/lab.md 介绍了这个实验室。</translation>
    </message>
    <message>
        <source>Shaw clip distance k: relative positions beyond +-k share one table row.</source>
        <translation>Shaw 方法的截断距离 k：超出 ±k 的相对位置共用表中的同一行。</translation>
    </message>
    <message>
        <source>DeBERTa position buckets (att_span): exact relative positions up to half of them, log buckets beyond.</source>
        <translation>DeBERTa 的位置桶数（att_span）：桶数一半以内的相对位置各自精确对应，超出部分按对数分桶。</translation>
    </message>
    <message>
        <source>A length-dependent scale of the last query, for the column entropy_with_query_scale_nats: logn (Qwen&apos;s use_logn_attn: log base L of the position past the trained length L) or llama4 (Llama 4&apos;s attention temperature, --floor-scale and --attn-scale).</source>
        <translation>最后一个查询随长度变化的缩放，结果写在 entropy_with_query_scale_nats 一列：logn（Qwen 的 use_logn_attn：位置超过训练长度 L 之后，乘以以 L 为底的对数）或 llama4（Llama 4 的注意力温度，见 --floor-scale 和 --attn-scale）。</translation>
    </message>
    <message>
        <source>Llama 4&apos;s floor_scale (positions per step of the temperature).</source>
        <translation>Llama 4 的 floor_scale（温度每升一级所跨的位置数）。</translation>
    </message>
    <message>
        <source>Llama 4&apos;s attn_scale (the temperature&apos;s slope per ln step).</source>
        <translation>Llama 4 的 attn_scale（温度随 ln(级数) 增长的斜率）。</translation>
    </message>
    <message>
        <source>DeBERTa distance the log buckets reach their last row at.</source>
        <translation>DeBERTa 对数分桶到达最后一行时对应的距离。</translation>
    </message>
    <message>
        <source>Which matrix: logits, weights (the softmax of each row of the logits; --causal masks the keys after the query, --window sliding|chunked with --window-span narrows that mask, --text &quot;the dog bit the man&quot; makes the words the positions), encoding, bias, buckets, cope-positions or cope-gates, as the method offers them.</source>
        <translation>哪个矩阵：logits（注意力分数）、weights（注意力权重：对注意力分数每一行做 softmax；--causal 屏蔽查询之后的键，--window sliding|chunked 配合 --window-span 把这个掩码再收窄成滑动窗口或分块，--text &quot;the dog bit the man&quot; 让词语充当位置）、encoding、bias、buckets、cope-positions 或 cope-gates，视方法提供哪些而定。</translation>
    </message>
    <message>
        <source>The query patch, numbered row by row (row P / W, column P mod W on a grid W patches wide).</source>
        <translation>查询图像块，按行依次编号（在每行 W 个图像块的网格上，位于第 P / W 行、第 P mod W 列）。</translation>
    </message>
    <message>
        <source>an integer in [0, N), N the number of patches (--seq-len)</source>
        <translation>[0, N) 内的整数，N 为图像块个数（--seq-len）</translation>
    </message>
    <message>
        <source>one query patch against every patch of an image-patch method&apos;s grid (rope2d, rope-mixed: logits; swin: bias): patch, row, column, value</source>
        <translation>以图像块为位置的方法（rope2d、rope-mixed：注意力分数；swin：偏置）的网格上，一个查询图像块与每个图像块之间的值：图像块、行、列、值</translation>
    </message>
    <message>
        <source>Patch grid: the query patch, numbered row by row (row P / W, column P mod W on a grid W patches wide).</source>
        <translation>图像块网格：查询图像块，按行依次编号（在每行 W 个图像块的网格上，位于第 P / W 行、第 P mod W 列）。</translation>
    </message>
    <message>
        <source>0 (or the session&apos;s)</source>
        <translation>0（或沿用会话中的设置）</translation>
    </message>
    <message>
        <source>--view token-layout shows M-RoPE&apos;s (t, h, w) position ids: give --method mrope (got --method %1)</source>
        <translation>--view token-layout 显示的是 M-RoPE 的 (t, h, w) 位置编号：请指定 --method mrope（收到的是 --method %1）</translation>
    </message>
    <message>
        <source>--animate: the token layout is not animated; use --view heatmap, rotation, decay or spectrum</source>
        <translation>--animate：词元布局不能做成动画；请用 --view heatmap、rotation、decay 或 spectrum</translation>
    </message>
    <message>
        <source>The figure: the heatmap, RoPE&apos;s rotation of a query and key, the decay curves (curves is the same), the frequency spectrum, the patch grid of an image-patch method (rope2d, rope-mixed, swin, vit: one query patch against every patch), or M-RoPE&apos;s token layout (each token&apos;s t, h, w ids; --method mrope). Required unless --session gives the visible view.</source>
        <translation>要画的图：热力图、RoPE 对一个查询和一个键的旋转、衰减曲线（curves 与之相同）、频谱、以图像块为位置的方法的图像块网格（rope2d、rope-mixed、swin、vit：一个查询图像块对每个图像块），或 M-RoPE 的词元布局（每个词元的 t、h、w 编号；需 --method mrope）。除非 --session 给出了可见的视图，否则必须指定。</translation>
    </message>
    <message>
        <source>--view is required: heatmap, rotation, decay (curves), spectrum, patch-grid or token-layout</source>
        <translation>必须指定 --view：heatmap、rotation、decay (curves)、spectrum、patch-grid 或 token-layout</translation>
    </message>
    <message>
        <source>--animate: the patch grid is exported as a still figure only</source>
        <translation>--animate：图像块网格只能导出为静态图</translation>
    </message>
</context>
<context>
    <name>Colormap</name>
    <message>
        <source>Viridis</source>
        <translation>Viridis</translation>
    </message>
    <message>
        <source>Magma</source>
        <translation>Magma</translation>
    </message>
    <message>
        <source>Cividis (colour-blind safe)</source>
        <translation>Cividis（色盲友好）</translation>
    </message>
    <message>
        <source>Diverging (0 at the centre)</source>
        <translation>发散型（中心为 0）</translation>
    </message>
</context>
<context>
    <name>ContentFilePicker</name>
    <message>
        <source>Arrays (*.npy *.csv *.safetensors);;All files (*)</source>
        <translation>数组 (*.npy *.csv *.safetensors);;所有文件 (*)</translation>
    </message>
    <message>
        <source>%1 has no 2-D tensor (positions x dimensions).</source>
        <translation>%1 中没有二维张量（位置 × 维度）。</translation>
    </message>
    <message>
        <source>Tensor (positions x head dimension):</source>
        <translation>张量（位置 × 头维度）：</translation>
    </message>
    <message>
        <source>Queries file (N x d)</source>
        <translation>查询文件（N × d）</translation>
    </message>
    <message>
        <source>Keys file (N x d)</source>
        <translation>键文件（N × d）</translation>
    </message>
</context>
<context>
    <name>Curves</name>
    <message>
        <source>ALiBi attention decay exp(−m r) per head · </source>
        <translation>每个头的 ALiBi 注意力衰减 exp(−m r) · </translation>
    </message>
    <message>
        <source>weight factor exp(−m r)</source>
        <translation>权重因子 exp(−m r)</translation>
    </message>
    <message>
        <source>m%1=%2</source>
        <translation>m%1=%2</translation>
    </message>
    <message>
        <source>trained %1</source>
        <translation>训练长度 %1</translation>
    </message>
    <message>
        <source>target %1</source>
        <translation>目标长度 %1</translation>
    </message>
    <message>
        <source>DeBERTa log-bucketed relative position · </source>
        <translation>DeBERTa 对数分桶相对位置 · </translation>
    </message>
    <message>
        <source>relative position δ (bucketed)</source>
        <translation>相对位置 δ（分桶后）</translation>
    </message>
    <message>
        <source>row used by attention (clamped to ±%1)</source>
        <translation>注意力实际使用的行（截断到 ±%1）</translation>
    </message>
    <message>
        <source>bucket δ before clamping</source>
        <translation>截断前的桶 δ</translation>
    </message>
    <message>
        <source>exact up to %1</source>
        <translation>%1 以内精确</translation>
    </message>
    <message>
        <source>max relative %1</source>
        <translation>最大相对位置 %1</translation>
    </message>
    <message>
        <source>RoPE long-term decay · </source>
        <translation>RoPE 远程衰减 · </translation>
    </message>
    <message>
        <source>relative size</source>
        <translation>相对大小</translation>
    </message>
    <message>
        <source>RoFormer bound ÷ bound(0)</source>
        <translation>RoFormer 上界（相对 r = 0）</translation>
    </message>
    <message>
        <source>mean cos(r θᵢ)</source>
        <translation>cos(rθᵢ) 的均值</translation>
    </message>
    <message>
        <source>unscaled θ: RoFormer bound ÷ bound(0)</source>
        <translation>未缩放的 θ：RoFormer 上界（相对 r = 0）</translation>
    </message>
    <message>
        <source>bound(0) = %1 · attention factor %2</source>
        <translation>r = 0 处的上界 %1 · 注意力因子 %2</translation>
    </message>
    <message>
        <source>θ for length %1 (the target length)</source>
        <translation>长度 %1（目标长度）下的 θ</translation>
    </message>
    <message>
        <source>θ for length %1</source>
        <translation>长度 %1 下的 θ</translation>
    </message>
    <message>
        <source>%1 × %2 is the identity here: θ′ = θ</source>
        <translation>此处 %1 × %2 为恒等变换：θ′ = θ</translation>
    </message>
    <message>
        <source>trained length %1 assumed: the config does not say whether max_position_embeddings is the trained or the extended context; set Original context</source>
        <translation>训练长度假定为 %1：配置没有说明 max_position_embeddings 是训练时的还是扩展后的上下文；请设置“原始上下文”</translation>
    </message>
    <message>
        <source>max distance %1</source>
        <translation>最大距离 %1</translation>
    </message>
    <message>
        <source>T5 learned bias per head against distance · </source>
        <translation>T5 各头学得的偏置随距离变化 · </translation>
    </message>
    <message>
        <source>bias added to the logit</source>
        <translation>加到 logit 上的偏置</translation>
    </message>
    <message>
        <source>h%1 key before</source>
        <translation>h%1 键在前</translation>
    </message>
    <message>
        <source>h%1</source>
        <translation>h%1</translation>
    </message>
    <message>
        <source>h%1 key after</source>
        <translation>h%1 键在后</translation>
    </message>
    <message>
        <source>%1 of %2 heads; the heatmap shows every head</source>
        <translation>显示 %2 个头中的 %1 个；热图显示全部头</translation>
    </message>
    <message>
        <source>T5 relative-position buckets · </source>
        <translation>T5 相对位置桶 · </translation>
    </message>
    <message>
        <source>bucket index</source>
        <translation>桶索引</translation>
    </message>
    <message>
        <source>key after query (j − i = +r)</source>
        <translation>键在查询之后 (j − i = +r)</translation>
    </message>
    <message>
        <source>key before query (j − i = −r)</source>
        <translation>键在查询之前 (j − i = −r)</translation>
    </message>
    <message>
        <source>key before query (causal)</source>
        <translation>键在查询之前（因果）</translation>
    </message>
    <message>
        <source>MLA rotary share of the logit · </source>
        <translation>MLA 注意力分数中的旋转占比 · </translation>
    </message>
    <message>
        <source>rotary share |R| / (|N| + |R|)</source>
        <translation>旋转占比 |R| / (|N| + |R|)</translation>
    </message>
    <message>
        <source>rotary share, d_nope %1, d_rope %2</source>
        <translation>旋转占比，d_nope %1，d_rope %2</translation>
    </message>
    <message>
        <source>softmax scale %1 = (d_nope + d_rope)^−½ × mscale²</source>
        <translation>softmax 缩放 %1 = (d_nope + d_rope)^−½ × mscale²</translation>
    </message>
</context>
<context>
    <name>DisplayedValues</name>
    <message>
        <source>interpolation</source>
        <translation>内插</translation>
    </message>
    <message>
        <source>slope scale × %1</source>
        <translation>斜率缩放 × %1</translation>
    </message>
</context>
<context>
    <name>Explanation</name>
    <message>
        <source>The logit is (q_i + p_i) · (k_j + p_j) / √d: the position vectors are added to the content before the product, so the score mixes content, position and their cross terms.</source>
        <translation>logit 为 (q_i + p_i) · (k_j + p_j) / √d：位置向量在点积之前加到内容上，所以注意力分数混合了内容、位置以及它们的交叉项。</translation>
    </message>
    <message>
        <source>The cross terms depend on i and j themselves, not only on i − j: the diagonals are not constant.</source>
        <translation>交叉项取决于 i 和 j 本身，而不仅是 i − j：对角线不是常数。</translation>
    </message>
    <message>
        <source>The logit is q_i · k_j / √d plus the bias −m·(i − j).</source>
        <translation>logit 为 q_i · k_j / √d 加上偏置 −m·(i − j)。</translation>
    </message>
    <message>
        <source>With constant content the first term is the same everywhere, so only the bias&apos;s straight ramp shows.</source>
        <translation>内容恒定时第一项处处相同，因此只看得到偏置的线性坡。</translation>
    </message>
    <message>
        <source>The content adds its own pattern on top of the bias&apos;s ramp.</source>
        <translation>内容在偏置的线性坡之上叠加了自己的图样。</translation>
    </message>
    <message>
        <source>The bias is −m·(i − j): 0 on the diagonal and falling in a straight line with the distance to the key; keys after the query are masked.</source>
        <translation>偏置为 −m·(i − j)：对角线上为 0，随到键的距离线性下降；查询之后的键被掩码。</translation>
    </message>
    <message>
        <source>The bias is −m·|i − j|: 0 on the diagonal and falling in a straight line with the distance on both sides.</source>
        <translation>偏置为 −m·|i − j|：对角线上为 0，向两侧随距离线性下降。</translation>
    </message>
    <message>
        <source>Each head has its own fixed slope m; for %1 heads (a power of two) the reference slopes are m = 2^(−8h/%1), h = 1 … %1: the first head is the steepest and looks only nearby, the last one sees far back.</source>
        <translation>每个头有自己固定的斜率 m；%1 个头（2 的幂）时参考斜率为 m = 2^(−8h/%1)，h = 1 … %1：第一个头最陡，只看附近，最后一个头能看到很远的过去。</translation>
    </message>
    <message>
        <source>The slopes are rescaled here (slope scale or ALiBi scaling), so the ramps are flatter or steeper than the reference&apos;s.</source>
        <translation>这里的斜率经过了缩放（斜率倍数或 ALiBi 缩放），因此坡度比参考值更平或更陡。</translation>
    </message>
    <message>
        <source>One line per head: exp(−m·r), the factor by which the bias multiplies a key&apos;s softmax weight at distance r. Steep heads forget within a few tokens; the flattest head still sees far back.</source>
        <translation>每个头一条曲线：e^(−m·r)，即偏置使距离 r 处键的 softmax 权重所乘的因子。陡的头几个 token 之后就“忘了”；最平的头仍能看到很远的过去。</translation>
    </message>
    <message>
        <source>Each cell is the gate sigmoid(q_i · k_j / √d), between 0 and 1: how much key j counts when query i counts positions. With the same vector everywhere all gates are equal.</source>
        <translation>每个格子是门控 sigmoid(q_i · k_j / √d)，介于 0 和 1 之间：查询 i 数位置时键 j 算多少。每个位置都是同一个向量时，所有门控都相等。</translation>
    </message>
    <message>
        <source>Each cell is the contextual position p_ij: the sum of the gates from key j up to the query i, so position is counted in gates, not in tokens. It grows away from the diagonal and stops at %1 (npos_max − 1); keys after the query are masked.</source>
        <translation>每个格子是上下文位置 p_ij：从键 j 到查询 i 的门控之和，所以位置以门控计数，而不是以 token 计数。它离对角线越远越大，最大为 %1（npos_max − 1）；查询之后的键被掩码。</translation>
    </message>
    <message>
        <source>The logit is q_i · k_j / √d plus a position term read between the embeddings at floor(p_ij) and ceil(p_ij), where p_ij is the contextual position (the sum of the gates from j to i).</source>
        <translation>logit 为 q_i · k_j / √d 加上一个位置项，该项在 p_ij 向下取整和向上取整处的两个嵌入之间插值，p_ij 是上下文位置（从 j 到 i 的门控之和）。</translation>
    </message>
    <message>
        <source>Each cell is the bucketed relative position of i − j: exact up to ±%1, logarithmically coarser beyond, up to max_relative_positions = %2.</source>
        <translation>每个格子是 i − j 分桶后的相对位置：在 ±%1 以内精确，之外按对数变粗，直到 max_relative_positions = %2。</translation>
    </message>
    <message>
        <source>Each cell is the relative position i − j, clipped to ±%1.</source>
        <translation>每个格子是相对位置 i − j，截断到 ±%1。</translation>
    </message>
    <message>
        <source>The logit adds to q_i · k_j the content-to-position and position-to-content terms, which read a relative-position embedding at the bucketed distance i − j (a seeded stand-in table here).</source>
        <translation>logit 在 q_i · k_j 之上加入“内容到位置”和“位置到内容”两项，它们读取分桶距离 i − j 处的相对位置嵌入（这里是带种子的替代表）。</translation>
    </message>
    <message>
        <source>The y axis is the bucketed relative position: equal to r near 0, then logarithmic. The solid line is the embedding row attention reads (clamped), the dashed one the bucket before clamping.</source>
        <translation>纵轴是分桶后的相对位置：在 0 附近等于 r，之后按对数增长。实线是注意力实际读取的嵌入行（已截断），虚线是截断前的桶。</translation>
    </message>
    <message>
        <source>Each row is the softmax of that row of logits: the weights lie between 0 and 1 and add up to 1 per row. Bright cells are the keys this query mostly reads.</source>
        <translation>每一行是该行 logit 的 softmax：注意力权重介于 0 和 1 之间，每行之和为 1。亮的格子是该查询主要读取的键。</translation>
    </message>
    <message>
        <source>The y axis is the logit of the last query against a key r positions before it. A flat line means the method sees no distance here; a falling one, a preference for near keys.</source>
        <translation>纵轴是最后一个查询对其前方 r 个位置处键的 logit。平直的线表示该方法在这里看不到距离；下降的线表示偏好近处的键。</translation>
    </message>
    <message>
        <source>Each row is a trained vector looked up by its position (a seeded random stand-in unless you load a table): nothing smooth is built in, and the %1 trained rows end abruptly: later positions have no embedding.</source>
        <translation>每一行是按位置查表得到的训练向量（除非加载了表，否则是带种子的随机替代）：其中没有内置的平滑结构，训练过的 %1 行之后戛然而止：更靠后的位置没有嵌入。</translation>
    </message>
    <message>
        <source>With zero content only p_i · p_j remains: how alike the two positions&apos; vectors are.</source>
        <translation>内容为零时只剩 p_i · p_j：两个位置的向量有多相似。</translation>
    </message>
    <message>
        <source>No position enters: swap two words and their rows and columns swap, nothing else.</source>
        <translation>没有任何位置信息：交换两个词，它们的行和列随之交换，别的都不变。</translation>
    </message>
    <message>
        <source>No position enters: the logit is q_i · k_j / √d.</source>
        <translation>没有任何位置信息：logit 就是 q_i · k_j / √d。</translation>
    </message>
    <message>
        <source>With the same vector everywhere every cell has the same value.</source>
        <translation>每个位置都是同一个向量时，所有格子的值都相同。</translation>
    </message>
    <message>
        <source>The pattern comes from the content only: swap two words and their rows and columns swap, nothing else.</source>
        <translation>图样完全来自内容：交换两个词，它们的行和列随之交换，别的都不变。</translation>
    </message>
    <message>
        <source>Its causal mask hides the keys after the query: the only order a NoPE model sees.</source>
        <translation>它的因果掩码隐藏查询之后的键：这是 NoPE 模型唯一能感知到的顺序。</translation>
    </message>
    <message>
        <source>With constant content this line is flat.</source>
        <translation>内容恒定时这条线是平的。</translation>
    </message>
    <message>
        <source>RoPE rotates the query by i·θ and the key by j·θ in every pair of dimensions, so their product depends on the angle (i − j)·θ only.</source>
        <translation>RoPE 在每个维度对中把查询旋转 i·θ、把键旋转 j·θ，因此两者的点积只取决于角度 (i − j)·θ。</translation>
    </message>
    <message>
        <source>With zero content every logit is 0: RoPE turns the content, it adds nothing of its own.</source>
        <translation>内容为零时每个 logit 都是 0：RoPE 只旋转内容向量，自身不添加任何东西。</translation>
    </message>
    <message>
        <source>With the same vector at every position the matrix is constant along each diagonal: the score depends on i − j only. It is largest on the diagonal; away from it the fast pairs make fine stripes and the slow pairs a broad decay.</source>
        <translation>每个位置都是同一个向量时，矩阵沿每条对角线为常数：注意力分数只取决于 i − j。对角线上最大；离开对角线后，快维度对形成细条纹，慢维度对形成宽缓的衰减。</translation>
    </message>
    <message>
        <source>With different vectors at each position the content changes every cell, so the diagonals are no longer constant: the relative pattern lies under the content&apos;s noise.</source>
        <translation>各位置向量不同时，内容会改变每个格子，对角线不再是常数：相对位置的图样被内容的噪声掩盖。</translation>
    </message>
    <message>
        <source>The scaling (%1) changes the frequencies θ′ (see the Spectrum view): the pattern stretches where θ′ &lt; θ.</source>
        <translation>缩放（%1）改变了频率 θ′（见频谱视图）：在 θ′ &lt; θ 的地方图样被拉伸。</translation>
    </message>
    <message>
        <source>Both lines are relative to r = 0: RoFormer&apos;s upper bound on the logit and the mean of cos(r·θ) over the pairs. Both fall with distance, with ripples from the slow pairs; the vertical lines mark the trained and target context, and a dashed line shows the unscaled θ when a scaling is set.</source>
        <translation>两条曲线都相对于 r = 0：RoFormer 给出的 logit 上界，以及各维度对上 r·θ 的余弦平均值。两者都随距离下降，慢维度对带来起伏；竖线标出训练长度和目标长度，设置了缩放时虚线显示未缩放 θ 的结果。</translation>
    </message>
    <message>
        <source>Each cell is the clipped relative index clip(j − i, −%1, %1): it changes near the diagonal and is flat more than %1 positions away from it.</source>
        <translation>每个格子是截断后的相对索引 clip(j − i, −%1, %1)：它在对角线附近变化，离对角线超过 %1 个位置后保持不变。</translation>
    </message>
    <message>
        <source>The logit is q_i · (k_j + a_(j − i)) / √d with a learned vector a per relative index, clipped to ±%1: beyond %1 positions from the diagonal every key looks alike.</source>
        <translation>logit 为 q_i · (k_j + a_(j − i)) / √d，每个相对索引有一个学习向量 a，索引截断到 ±%1：离对角线超过 %1 个位置后，所有键看起来都一样。</translation>
    </message>
    <message>
        <source>Columns 2k and 2k + 1 are sin and cos of the position at frequency 1/base^(2k/d): the left columns change fast (thin stripes), the right ones slowly (broad bands).</source>
        <translation>第 2k 和 2k + 1 列是位置在频率 1/基数^(2k/d) 下的正弦和余弦：左侧的列变化快（细条纹），右侧的列变化慢（宽条带）。</translation>
    </message>
    <message>
        <source>The first half of the columns are sines, the second half cosines of the position, each half from fast (thin stripes, left) to slow (broad bands, right).</source>
        <translation>前一半列是位置的正弦，后一半是余弦，每一半都从快（细条纹，左）到慢（宽条带，右）。</translation>
    </message>
    <message>
        <source>With zero content only p_i · p_j remains: a sum of cos((i − j)·ω), the same along each diagonal.</source>
        <translation>内容为零时只剩 p_i · p_j：即各频率 ω 上 (i − j)·ω 的余弦之和，沿每条对角线相同。</translation>
    </message>
    <message>
        <source>Near the diagonal each distance below %1 has its own bucket; further out distances share logarithmically wider buckets, and from %2 on all share the last one.</source>
        <translation>在对角线附近，小于 %1 的每个距离各有一个桶；更远的距离共享按对数变宽的桶，从 %2 起全部落入最后一个桶。</translation>
    </message>
    <message>
        <source>Each cell is the bucket index of the relative position j − i: 0 on the diagonal.</source>
        <translation>每个格子是相对位置 j − i 的桶编号：对角线上为 0。</translation>
    </message>
    <message>
        <source>Keys after the query use the upper half of the buckets (from %1).</source>
        <translation>查询之后的键使用后一半的桶（从 %1 起）。</translation>
    </message>
    <message>
        <source>The logit is the content term q_i · k_j / √d plus the bucket bias (T5 itself does not divide by √d; here it does, so that the methods compare).</source>
        <translation>logit 为内容项 q_i · k_j / √d 加上桶偏置（T5 本身不除以 √d；这里除以它，以便与其他方法比较）。</translation>
    </message>
    <message>
        <source>Each cell is the learned bias of the bucket of j − i, one table row per head (a seeded stand-in table here): constant along each diagonal.</source>
        <translation>每个格子是 j − i 所在桶的学习偏置，每个头一行（这里是带种子的替代表）：沿每条对角线为常数。</translation>
    </message>
    <message>
        <source>The y axis is the bucket index of a key r positions after (and before) the query: a staircase with one step per distance near 0, then logarithmically wider steps, flat from max distance %1 on.</source>
        <translation>纵轴是位于查询之后（及之前）r 个位置的键的桶编号：呈阶梯状，在 0 附近每个距离一级，然后台阶按对数变宽，从最大距离 %1 起保持平直。</translation>
    </message>
    <message>
        <source>The logit is the sum of four terms (Dai et al. 2019, eq. 3): content × content, content × position, a global content bias and a global position bias; the position terms use a sinusoid of i − j. Switch terms off in the panel to see each one alone.</source>
        <translation>logit 是四项之和（Dai et al. 2019，式 3）：内容 × 内容、内容 × 位置、全局内容偏置和全局位置偏置；位置项使用 i − j 的正弦编码。在参数面板中关闭其中几项，即可单独查看每一项。</translation>
    </message>
    <message>
        <source>xPos is RoPE with a decay: each pair is also scaled by ζ^((i − j)/γ) with ζ &lt; 1, so the scores fade with the distance to earlier keys, fastest for the fast pairs.</source>
        <translation>xPos 是带衰减的 RoPE：每个维度对还乘以 ζ^((i − j)/γ)，其中 ζ &lt; 1，因此注意力分数随到之前键的距离而减弱，快维度对衰减最快。</translation>
    </message>
    <message>
        <source>With the same vector at every position the matrix is constant along each diagonal.</source>
        <translation>每个位置都是同一个向量时，矩阵沿每条对角线为常数。</translation>
    </message>
    <message>
        <source>M-RoPE gives every token three ids (time, row, column) and rotates each pair of dimensions by one of them: text tokens have three equal ids, image patches their place in the grid.</source>
        <translation>M-RoPE 给每个词元三个编号（时间、行、列），每一对维度按其中一个编号旋转：文本词元的三个编号相同，图像块的编号是它在网格中的位置。</translation>
    </message>
    <message>
        <source>Qwen3-VL interleaves the axes over the pairs (t, h, w, t, h, w, …), so every axis has fast and slow pairs.</source>
        <translation>Qwen3-VL 把三个轴交错分配给各维度对（t, h, w, t, h, w, …），因此每个轴都既有快转的对，也有慢转的对。</translation>
    </message>
    <message>
        <source>Qwen2-VL gives the first pairs (the fastest) to time, the next to rows and the slowest to columns.</source>
        <translation>Qwen2-VL 把最前面的（转得最快的）维度对分给时间，接下来的分给行，最慢的分给列。</translation>
    </message>
    <message>
        <source>Inside an image the pattern follows the 2D distance between patches; text after an image starts after the image&apos;s largest id, not after its token count.</source>
        <translation>图像内部的图样随图像块之间的二维距离变化；图像之后的文本从图像的最大编号之后开始，而不是从它的词元数之后开始。</translation>
    </message>
    <message>
        <source>Multi-head latent attention splits each head in two: q_nope · k_nope (%1 dimensions) carries no position, and only the %2 decoupled RoPE dimensions are rotated, so the logit is a content term plus a rotary term of i − j.</source>
        <translation>多头潜在注意力把每个头分成两部分：q_nope · k_nope（%1 维）不带位置信息，只有 %2 个解耦的 RoPE 维度被旋转，所以注意力分数等于一个内容项加上一个只与 i − j 有关的旋转项。</translation>
    </message>
    <message>
        <source>With the same vector at every position the content term is one number and the rotary term depends on i − j only: the diagonals are constant, RoPE&apos;s pattern on a small head, lifted by the content term.</source>
        <translation>每个位置都是同一个向量时，内容项是一个常数，旋转项只取决于 i − j：每条对角线上的值相同，看到的是一个小头上的 RoPE 图样，整体被内容项抬高。</translation>
    </message>
    <message>
        <source>Softmax scale %1: (d_nope + d_rope)^−½ times mscale² for YaRN with mscale_all_dim (DeepseekV3Attention).</source>
        <translation>softmax 缩放为 %1：即 (d_nope + d_rope)^−½，在 YaRN 设置了 mscale_all_dim 时再乘以 mscale²（见 DeepseekV3Attention）。</translation>
    </message>
    <message>
        <source>The line is the rotary share |R| / (|N| + |R|) of one logit at distance r: N is the position-free q_nope · k_nope, R the rotated part. It is largest where the rotary dimensions line up (r = 0 for the same vector everywhere) and falls as they turn apart.</source>
        <translation>这条曲线是距离为 r 时注意力分数中的旋转占比 |R| / (|N| + |R|)：N 是不带位置的 q_nope · k_nope，R 是旋转部分。旋转维度彼此对齐时占比最大（各位置向量相同时在 r = 0 处），随着它们转开，占比逐渐下降。</translation>
    </message>
    <message>
        <source>Each position is a patch of the image grid, numbered row by row; each cell is the logit between two patches.</source>
        <translation>每个位置是图像网格中的一个图像块，按行依次编号；每个格子是两个图像块之间的注意力分数。</translation>
    </message>
    <message>
        <source>Half of the rotary pairs turn by the patch&apos;s row, the other half by its column, so the logit depends on the vertical and horizontal offsets between the patches, not on the distance between their numbers.</source>
        <translation>一半的维度对按图像块所在的行旋转，另一半按所在的列旋转，所以注意力分数取决于两个图像块在竖直和水平方向上的偏移，而不是它们编号之差。</translation>
    </message>
    <message>
        <source>Pixtral gives rows the even frequencies and columns the odd ones, so both axes have fast and slow pairs.</source>
        <translation>Pixtral 把偶数序号的频率分给行、奇数序号的频率分给列，所以两个方向都既有转得快的维度对，也有转得慢的。</translation>
    </message>
    <message>
        <source>Llama 4 gives columns and rows the same frequencies, in two halves of the pairs.</source>
        <translation>Llama 4 让列和行使用同一组频率，各占维度对的一半。</translation>
    </message>
    <message>
        <source>The diagonal bands repeat every grid width: the patches directly above and below a query are one width away in the numbering.</source>
        <translation>对角条纹每隔一个网格宽度重复一次：查询正上方和正下方的图像块，编号恰好相差一个宽度。</translation>
    </message>
    <message>
        <source>Each position is a patch of the image grid, numbered row by row; each cell is the logit between two patches for the head shown.</source>
        <translation>每个位置是图像网格中的一个图像块，按行依次编号；每个格子是当前所示注意力头下两个图像块之间的注意力分数。</translation>
    </message>
    <message>
        <source>Every rotary pair turns by x·θx + y·θy: along its own direction in the image, so a head can prefer diagonal neighbours, which axial 2D RoPE cannot.</source>
        <translation>每个维度对旋转 x·θx + y·θy：沿着它在图像中自己的方向转动，所以一个注意力头可以偏好斜对角方向的邻居，而轴向二维 RoPE 做不到这一点。</translation>
    </message>
    <message>
        <source>Without a trained table the directions are the paper&apos;s random start: one angle per head, half of the pairs along it and half at a right angle.</source>
        <translation>没有训练好的频率表时，方向取论文中的随机初始值：每个注意力头一个角度，一半维度对沿这个方向，另一半与它垂直。</translation>
    </message>
    <message>
        <source>Each position is a patch; every M × M patches form a window, numbered row by row, and a patch attends only to the patches of its own window (the empty cells are other windows).</source>
        <translation>每个位置是一个图像块；每 M × M 个图像块组成一个窗口，窗口内按行编号，一个图像块只关注同一窗口内的图像块（空白格子属于其他窗口）。</translation>
    </message>
    <message>
        <source>Each cell is the learned bias of the two patches&apos; vertical and horizontal offset: one number per offset and head, the same in every window.</source>
        <translation>每个格子是两个图像块在竖直和水平方向上偏移所对应的可学习偏置：每种偏移、每个注意力头一个数，在每个窗口里都相同。</translation>
    </message>
    <message>
        <source>Each cell is q_i · k_j / √d plus the learned bias of the two patches&apos; vertical and horizontal offset.</source>
        <translation>每个格子是 q_i · k_j / √d，再加上两个图像块竖直和水平偏移所对应的可学习偏置。</translation>
    </message>
    <message>
        <source>Without a trained table the bias is the seeded random start (σ 0.02), small beside the content term: load a trained table to see what a model learned.</source>
        <translation>没有训练好的偏置表时，偏置取带随机种子的初始值（σ 0.02），与内容项相比很小：载入训练好的偏置表，才能看到模型真正学到了什么。</translation>
    </message>
    <message>
        <source>Each position is an image patch of a %1 × %1 grid, numbered row by row; the CLS token&apos;s row of the table (row 0) has no place on the grid and is left out.</source>
        <translation>每个位置是 %1 × %1 网格中的一个图像块，按行编号；表中 CLS 词元的那一行（第 0 行）在网格上没有位置，不予显示。</translation>
    </message>
    <message>
        <source>The logit is (q_i + p_i) · (k_j + p_j) / √D: the patch&apos;s learned position vector is added to its content before the product.</source>
        <translation>注意力分数为 (q_i + p_i) · (k_j + p_j) / √D：先把图像块学到的位置向量加到它的内容上，再做点积。</translation>
    </message>
    <message>
        <source>With zero content only p_i · p_j / √D remains: how alike the two patches&apos; position vectors are, scaled by their lengths.</source>
        <translation>内容为零时只剩 p_i · p_j / √D：两个图像块的位置向量有多相似，并受它们长度的影响。</translation>
    </message>
    <message>
        <source>Each cell is the cosine similarity of the two patches&apos; position vectors, as in the ViT paper&apos;s Fig. 7: 1 on the diagonal; a trained table is most alike for patches near each other and in the same row or column. The Patch grid dock shows one query patch&apos;s row on the image.</source>
        <translation>每个格子是两个图像块位置向量的余弦相似度，即 ViT 论文图 7 所画的量：对角线上为 1；训练好的表中，相邻的图像块以及同一行、同一列的图像块最相似。“图像块网格”面板把一个查询图像块的这一行画在图像上。</translation>
    </message>
    <message>
        <source>Without a trained table the positions are the seeded random start (σ 0.02), alike for no pair of patches: load a trained table to see what a model learned.</source>
        <translation>没有训练好的表时，位置向量取带随机种子的初始值（σ 0.02），任何两个图像块都不相似：载入训练好的表，才能看到模型真正学到了什么。</translation>
    </message>
</context>
<context>
    <name>Gallery</name>
    <message>
        <source>ALiBi&apos;s exp(−m r) per head: the attention weight factor at distance r</source>
        <translation>每个头的 ALiBi exp(−m r)：距离为 r 处的注意力权重因子</translation>
    </message>
    <message>
        <source>CoPE contextual positions p_ij = Σ_{t=j..i} σ(qᵢ·k_t), seeded random content (Golovneva et al. 2024)</source>
        <translation>CoPE 上下文位置 p_ij = Σ_{t=j..i} σ(qᵢ·k_t)，随机种子生成的内容 (Golovneva et al. 2024)</translation>
    </message>
    <message>
        <source>DeBERTa-v3 disentangled attention logits (c2c + c2p + p2c) for one fixed content vector: the position terms vary with the log bucket of i − j</source>
        <translation>单个固定内容向量下的 DeBERTa-v3 解耦注意力分数 (c2c + c2p + p2c)：位置项随 i − j 的对数桶变化</translation>
    </message>
    <message>
        <source>Phi-3-mini-128k LongRoPE: per-pair long factors and the attention factor</source>
        <translation>Phi-3-mini-128k LongRoPE：每个维度对的长因子及注意力因子</translation>
    </message>
    <message>
        <source>PE[i] · PE[j] / √d of the base Transformer: it depends on i − j only and decays away from the diagonal (zero content, position terms only)</source>
        <translation>基础版 Transformer 的 PE[i] · PE[j] / √d：仅取决于 i − j，并随远离对角线而衰减（内容为零，仅位置项）</translation>
    </message>
    <message>
        <source>Transformer-XL relative attention, terms (a)+(b)+(c)+(d), seeded random content</source>
        <translation>Transformer-XL 相对注意力，(a)+(b)+(c)+(d) 项，随机种子生成的内容</translation>
    </message>
    <message>
        <source>Qwen3-VL on the same tokens: the same ids, but the head&apos;s pairs interleave the axes t h w t h w …, so rows and columns turn fast pairs too</source>
        <translation>Qwen3-VL 处理同样的词元：位置编号相同，但注意力头的维度对按 t h w t h w … 交错分配给三个轴，所以行和列也能转动快的维度对</translation>
    </message>
    <message>
        <source>ALiBi bias −m(i − j) for %1 heads, slopes 1/%2 … 1/%3 (Press et al. 2022)</source>
        <translation>%1 个头的 ALiBi 偏置 −m(i − j)，斜率 1/%2 … 1/%3 (Press et al. 2022)</translation>
    </message>
    <message>
        <source>DeBERTa-v3 log-bucketed relative positions (%1 buckets, span %2)</source>
        <translation>DeBERTa-v3 对数分桶的相对位置（%1 个桶，跨度 %2）</translation>
    </message>
    <message>
        <source>BERT-base learned absolute table (seeded N(0, %1) stand-in for the trained one): positions from %2 on have no embedding (hatched), never zero</source>
        <translation>BERT-base 可学习绝对位置表（用随机种子生成的 N(0, %1) 替代训练所得的表）：从 %2 开始的位置没有嵌入（斜线阴影），而不是零</translation>
    </message>
    <message>
        <source>MLA logits of DeepSeek-V3 (%1 position-free and %2 rotary dimensions, YaRN × %3, softmax scale %4^−½ × (%5)²) for all-ones content: RoPE&apos;s pattern on the rotary part above the constant content term</source>
        <translation>DeepSeek-V3 的 MLA 注意力分数（%1 个无位置维度和 %2 个旋转维度，YaRN × %3，softmax 缩放 %4^−½ × (%5)²），内容全为 1：在恒定的内容项之上，旋转部分呈现 RoPE 的图样</translation>
    </message>
    <message>
        <source>DeepSeek-V3&apos;s rotary share |R| / (|N| + |R|) of the logit against distance for all-ones content, out to %1</source>
        <translation>DeepSeek-V3 注意力分数中的旋转占比 |R| / (|N| + |R|) 随距离的变化，内容全为 1，距离延伸到 %1</translation>
    </message>
    <message>
        <source>M-RoPE logits (Qwen2-VL sections %1, θ %2, d %3) for %4 text tokens, a %5 × %6-patch image merged to %7 × %8 tokens and %9 text tokens: rows and columns turn only the slow pairs, so the image block is nearly flat</source>
        <translation>M-RoPE 注意力分数（Qwen2-VL 分段 %1，θ %2，d %3）：%4 个文本词元、一幅 %5 × %6 块的图像（合并为 %7 × %8 个词元）和 %9 个文本词元；行和列只转动慢的维度对，所以图像区块几乎是平的</translation>
    </message>
    <message>
        <source>Qwen3-VL&apos;s interleaved M-RoPE (sections %1, θ %2, d %3) on the same layout: rows and columns get fast pairs too, and the image block shows the patches&apos; 2D distances</source>
        <translation>Qwen3-VL 的交错 M-RoPE（分段 %1，θ %2，d %3），布局相同：行和列也分到快的维度对，图像区块显出图像块之间的二维距离</translation>
    </message>
    <message>
        <source>Qwen2-VL&apos;s position ids (t, h, w) of each token for text, an image of %1 × %2 patches merged to %3 × %4 tokens and text: the image&apos;s tokens share t and count rows and columns, the text after it resumes past the largest id; the head&apos;s %5 pairs in three chunks t, h, w</source>
        <translation>Qwen2-VL 中每个词元的位置编号 (t, h, w)：文本、一幅 %1 × %2 个图像块的图像（合并为 %3 × %4 个词元）和文本；图像的词元共用同一个 t，h 和 w 依次数行和列，图像之后的文本从最大编号之后接着数；注意力头的 %5 个维度对按 t、h、w 分成三段</translation>
    </message>
    <message>
        <source>RoPE logits of Llama-2-7B (θ %1, d %2) for all-ones content: the positional pattern, Toeplitz in i − j</source>
        <translation>全 1 内容下 Llama-2-7B（θ %1，d %2）的 RoPE 注意力分数：即位置模式，关于 i − j 呈 Toeplitz 结构</translation>
    </message>
    <message>
        <source>RoFormer long-term decay (Su et al., sec. 3.4.3): (1/(d/2)) Σ|Sⱼ| against relative distance, θ %1, d %2</source>
        <translation>RoFormer 远程衰减（Su et al.，第 3.4.3 节）：(1/(d/2)) Σ|Sⱼ| 随相对距离的变化，θ %1，d %2</translation>
    </message>
    <message>
        <source>The same bound and mean cos(rθᵢ) out to r = %1 on a log axis</source>
        <translation>同一上界与 cos(rθᵢ) 的均值，延伸到 r = %1，对数坐标轴</translation>
    </message>
    <message>
        <source>RoPE rotation of q at m = %1 and k at n = %2, large for pairs %3, %4, %5 and %6, and every pair&apos;s hand</source>
        <translation>q 在 m = %1、k 在 n = %2 处的 RoPE 旋转：第 %3、%4、%5、%6 个维度对画成大圆，另有每个维度对的指针</translation>
    </message>
    <message>
        <source>p-RoPE as Gemma 4&apos;s full-attention layers use it (proportional RoPE: d %1, θ %2, p %3): the %4 highest frequencies of the head turn, its %5 lowest pairs do not</source>
        <translation>Gemma 4 全局注意力层所用的 p-RoPE（比例 RoPE：d %1，θ %2，p %3）：头中频率最高的 %4 对会旋转，频率最低的 %5 对不旋转</translation>
    </message>
    <message>
        <source>YaRN on Yarn-Llama-2-7b-64k (factor %1, original %2, β %3/%4): wavelengths against the original context and the ramp per pair</source>
        <translation>Yarn-Llama-2-7b-64k 上的 YaRN（factor %1，原始长度 %2，β %3/%4）：各维度对波长与原始上下文的对比，以及每个维度对的斜坡函数</translation>
    </message>
    <message>
        <source>Llama 3.1 8B: high-frequency pairs kept, low-frequency pairs divided by %1, a smooth band between (low %2, high %3, original %4)</source>
        <translation>Llama 3.1 8B：高频维度对保持不变，低频维度对除以 %1，两者之间平滑过渡（low %2，high %3，原始长度 %4）</translation>
    </message>
    <message>
        <source>2D RoPE (Pixtral, θ %1, d %2) on a %3 × %4 patch grid: the centre patch (row %5, column %6) against every patch; rows and columns turn separate pairs, so the logits form a cross</source>
        <translation>%3 × %4 图像块网格上的二维 RoPE（Pixtral，θ %1，d %2）：中心图像块（第 %5 行、第 %6 列）对每个图像块的注意力分数；行和列各自旋转不同的维度对，所以注意力分数呈十字形</translation>
    </message>
    <message>
        <source>RoPE-Mixed (Heo et al. 2024, %1 × %2 patches, d %3, seeded directions, head %4) against the centre patch (row %5, column %6): mixed directions turn on diagonals too, not only along rows and columns</source>
        <translation>RoPE-Mixed（Heo et al. 2024，%1 × %2 个图像块，d %3，随机种子生成的方向，第 %4 个头）对中心图像块（第 %5 行、第 %6 列）：混合方向不只沿行和列旋转，也沿对角线旋转</translation>
    </message>
    <message>
        <source>Shaw et al. 2018: relative index clip(j − i, −%1, %1)</source>
        <translation>Shaw et al. 2018：相对索引 clip(j − i, −%1, %1)</translation>
    </message>
    <message>
        <source>Sinusoidal encoding PE[p, i] of the base Transformer (d_model %1, base %2), Vaswani et al. 2017, interleaved sin/cos</source>
        <translation>基础版 Transformer 的正弦编码 PE[p, i]（d_model %1，base %2），Vaswani et al. 2017，sin/cos 交错</translation>
    </message>
    <message>
        <source>Swin&apos;s relative position bias (swin-tiny, %1 × %1 window, seeded table, std %2, head %3) of the centre patch (row %4, column %5) against the window&apos;s patches: one learned value per 2D offset</source>
        <translation>Swin 的相对位置偏置（swin-tiny，%1 × %1 窗口，按种子生成的表，标准差 %2，第 %3 个头）：中心图像块（第 %4 行，第 %5 列）对窗口内各图像块的偏置，每种二维偏移一个可学习的值</translation>
    </message>
    <message>
        <source>T5-base relative attention bias per head (seeded table, %1 buckets, max distance %2)</source>
        <translation>T5-base 每个头的相对注意力偏置（随机种子生成的表，%1 个桶，最大距离 %2）</translation>
    </message>
    <message>
        <source>T5 bucket of relative position (key − query), %1 buckets, max distance %2, as in Hugging Face T5Attention._relative_position_bucket</source>
        <translation>相对位置（键 − 查询）的 T5 桶，%1 个桶，最大距离 %2，与 Hugging Face T5Attention._relative_position_bucket 一致</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>System language</source>
        <translation>系统语言</translation>
    </message>
    <message>
        <source>d MMM yyyy, HH:mm</source>
        <translation>yyyy年M月d日 HH:mm</translation>
    </message>
</context>
<context>
    <name>MatrixKind</name>
    <message>
        <source>bias</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>logits</source>
        <translation>注意力分数 (logits)</translation>
    </message>
    <message>
        <source>contextual positions</source>
        <translation>上下文位置</translation>
    </message>
    <message>
        <source>gates</source>
        <translation>门控</translation>
    </message>
    <message>
        <source>buckets</source>
        <translation>桶</translation>
    </message>
    <message>
        <source>encoding</source>
        <translation>编码</translation>
    </message>
    <message>
        <source>attention weights</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>position similarity</source>
        <translation>位置相似度</translation>
    </message>
</context>
<context>
    <name>MatrixLabel</name>
    <message>
        <source>query position i</source>
        <translation>查询位置 i</translation>
    </message>
    <message>
        <source>key position j</source>
        <translation>键位置 j</translation>
    </message>
    <message>
        <source>position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>dimension</source>
        <translation>维度</translation>
    </message>
    <message>
        <source>encoding</source>
        <translation>编码</translation>
    </message>
    <message>
        <source>bias</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>logit</source>
        <translation>注意力分数 (logit)</translation>
    </message>
    <message>
        <source>contextual position p_ij</source>
        <translation>上下文位置 p_ij</translation>
    </message>
    <message>
        <source>gate sigmoid(q_i . k_j)</source>
        <translation>门控 sigmoid(q_i · k_j)</translation>
    </message>
    <message>
        <source>bucket</source>
        <translation>桶</translation>
    </message>
    <message>
        <source>clipped relative index j - i</source>
        <translation>截断的相对索引 j − i</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>query patch i</source>
        <translation>查询图像块 i</translation>
    </message>
    <message>
        <source>key patch j</source>
        <translation>键图像块 j</translation>
    </message>
    <message>
        <source>cosine similarity</source>
        <translation>余弦相似度</translation>
    </message>
</context>
<context>
    <name>Method</name>
    <message>
        <source>ALiBi (Press et al. 2022)</source>
        <translation>ALiBi (Press et al. 2022)</translation>
    </message>
    <message>
        <source>ALiBi</source>
        <translation>ALiBi</translation>
    </message>
    <message>
        <source>CoPE (Golovneva et al. 2024)</source>
        <translation>CoPE (Golovneva et al. 2024)</translation>
    </message>
    <message>
        <source>CoPE</source>
        <translation>CoPE</translation>
    </message>
    <message>
        <source>DeBERTa disentangled attention</source>
        <translation>DeBERTa 解耦注意力</translation>
    </message>
    <message>
        <source>DeBERTa</source>
        <translation>DeBERTa</translation>
    </message>
    <message>
        <source>Learned absolute (BERT, GPT-2)</source>
        <translation>可学习绝对位置编码（BERT、GPT-2）</translation>
    </message>
    <message>
        <source>Learned</source>
        <translation>可学习</translation>
    </message>
    <message>
        <source>NoPE (no positional encoding)</source>
        <translation>NoPE（无位置编码）</translation>
    </message>
    <message>
        <source>NoPE</source>
        <translation>NoPE</translation>
    </message>
    <message>
        <source>RoPE (Su et al. 2021)</source>
        <translation>RoPE (Su et al. 2021)</translation>
    </message>
    <message>
        <source>RoPE</source>
        <translation>RoPE</translation>
    </message>
    <message>
        <source>Relative (Shaw et al. 2018)</source>
        <translation>相对位置编码 (Shaw et al. 2018)</translation>
    </message>
    <message>
        <source>Shaw</source>
        <translation>Shaw</translation>
    </message>
    <message>
        <source>Sinusoidal (Vaswani et al. 2017)</source>
        <translation>正弦位置编码 (Vaswani et al. 2017)</translation>
    </message>
    <message>
        <source>Sinusoidal</source>
        <translation>正弦</translation>
    </message>
    <message>
        <source>T5 relative buckets</source>
        <translation>T5 相对位置桶</translation>
    </message>
    <message>
        <source>T5</source>
        <translation>T5</translation>
    </message>
    <message>
        <source>Transformer-XL / XLNet</source>
        <translation>Transformer-XL / XLNet</translation>
    </message>
    <message>
        <source>Transformer-XL</source>
        <translation>Transformer-XL</translation>
    </message>
    <message>
        <source>xPos (Sun et al. 2022)</source>
        <translation>xPos (Sun et al. 2022)</translation>
    </message>
    <message>
        <source>xPos</source>
        <translation>xPos</translation>
    </message>
    <message>
        <source>M-RoPE</source>
        <translation>M-RoPE</translation>
    </message>
    <message>
        <source>M-RoPE (Wang et al. 2024, multimodal)</source>
        <translation>M-RoPE（Wang 等 2024，多模态）</translation>
    </message>
    <message>
        <source>MLA decoupled RoPE (DeepSeek-V2/V3)</source>
        <translation>MLA 解耦 RoPE（DeepSeek-V2/V3）</translation>
    </message>
    <message>
        <source>MLA</source>
        <translation>MLA</translation>
    </message>
    <message>
        <source>2D RoPE (axial, image patches)</source>
        <translation>二维 RoPE（轴向，图像块）</translation>
    </message>
    <message>
        <source>2D RoPE</source>
        <translation>二维 RoPE</translation>
    </message>
    <message>
        <source>RoPE-Mixed (Heo et al. 2024, image patches)</source>
        <translation>RoPE-Mixed（Heo 等，2024，图像块）</translation>
    </message>
    <message>
        <source>RoPE-Mixed</source>
        <translation>RoPE-Mixed</translation>
    </message>
    <message>
        <source>Swin relative position bias (Liu et al. 2021)</source>
        <translation>Swin 相对位置偏置（Liu 等，2021）</translation>
    </message>
    <message>
        <source>Swin bias</source>
        <translation>Swin 偏置</translation>
    </message>
    <message>
        <source>ViT learned patch positions (Dosovitskiy et al. 2021)</source>
        <translation>ViT 可学习图像块位置（Dosovitskiy 等，2021）</translation>
    </message>
    <message>
        <source>ViT patches</source>
        <translation>ViT 图像块</translation>
    </message>
</context>
<context>
    <name>ParamSpec</name>
    <message>
        <source>Heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <source>Number of heads: slopes form the geometric sequence 2^(-8h/n).</source>
        <translation>注意力头的数量：各头斜率构成等比数列 2^(-8h/n)。</translation>
    </message>
    <message>
        <source>Slope scale</source>
        <translation>斜率缩放</translation>
    </message>
    <message>
        <source>Multiplies every slope (1 = the paper). Larger slopes make attention more local.</source>
        <translation>所有斜率乘以该值（1 = 论文设置）。斜率越大，注意力越局部。</translation>
    </message>
    <message>
        <source>Bias</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>Causal: -m(i - j) for keys before the query. Symmetric: -m|i - j| for encoders.</source>
        <translation>因果：对查询之前的键施加 -m(i - j)。对称：编码器使用 -m|i - j|。</translation>
    </message>
    <message>
        <source>Causal</source>
        <translation>因果</translation>
    </message>
    <message>
        <source>Symmetric</source>
        <translation>对称</translation>
    </message>
    <message>
        <source>Length scaling</source>
        <translation>长度缩放</translation>
    </message>
    <message>
        <source>How slopes change to reach a longer context: interpolate (m·L_train/L_target) or NTK-ALiBi.</source>
        <translation>为达到更长上下文而调整斜率的方式：内插 (m·L_train/L_target) 或 NTK-ALiBi。</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Interpolate</source>
        <translation>内插</translation>
    </message>
    <message>
        <source>NTK-ALiBi</source>
        <translation>NTK-ALiBi</translation>
    </message>
    <message>
        <source>Trained length</source>
        <translation>训练长度</translation>
    </message>
    <message>
        <source>positions</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Context the slopes were trained for (used by the scaling modes).</source>
        <translation>斜率训练时所用的上下文长度（供缩放模式使用）。</translation>
    </message>
    <message>
        <source>Target length</source>
        <translation>目标长度</translation>
    </message>
    <message>
        <source>Context to reach (used by the scaling modes, &gt;= trained length).</source>
        <translation>要达到的上下文长度（供缩放模式使用，&gt;= 训练长度）。</translation>
    </message>
    <message>
        <source>Initializer σ</source>
        <translation>初始化 σ</translation>
    </message>
    <message>
        <source>Standard deviation of the seeded stand-in table (initializer_range, 0.02 in BERT and GPT-2).</source>
        <translation>由随机种子生成的替代表的标准差（initializer_range，BERT 和 GPT-2 中为 0.02）。</translation>
    </message>
    <message>
        <source>Head dimension</source>
        <translation>头维度</translation>
    </message>
    <message>
        <source>Dimension of queries, keys and position embeddings.</source>
        <translation>查询、键和位置嵌入的维度。</translation>
    </message>
    <message>
        <source>Max positions</source>
        <translation>最大位置数</translation>
    </message>
    <message>
        <source>npos_max: number of position embeddings; contextual positions beyond it are clamped.</source>
        <translation>npos_max：位置嵌入的数量；超出该值的上下文位置会被截断到上限。</translation>
    </message>
    <message>
        <source>Gate scale</source>
        <translation>门控缩放</translation>
    </message>
    <message>
        <source>Multiplies q·k inside the gate sigmoid (1 = the paper): larger values make gates closer to 0/1, so positions count tokens more sharply.</source>
        <translation>门控 sigmoid 内部 q·k 的乘数（1 = 论文设置）：值越大，门控越接近 0/1，位置对 token 的计数越分明。</translation>
    </message>
    <message>
        <source>Embedding seed</source>
        <translation>嵌入随机种子</translation>
    </message>
    <message>
        <source>Seed of the position embeddings.</source>
        <translation>位置嵌入的随机种子。</translation>
    </message>
    <message>
        <source>Dimension of content and relative position projections.</source>
        <translation>内容投影和相对位置投影的维度。</translation>
    </message>
    <message>
        <source>Position buckets</source>
        <translation>位置桶</translation>
    </message>
    <message>
        <source>position_buckets: log buckets beyond ±buckets/2 (0 or -1: plain clipped relative positions).</source>
        <translation>position_buckets：超出 ±buckets/2 的部分使用对数桶（0 或 -1：直接截断的相对位置）。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Max relative positions</source>
        <translation>最大相对位置</translation>
    </message>
    <message>
        <source>max_relative_positions: the span the log buckets reach.</source>
        <translation>max_relative_positions：对数桶所覆盖的跨度。</translation>
    </message>
    <message>
        <source>Content → position (c2p)</source>
        <translation>内容 → 位置 (c2p)</translation>
    </message>
    <message>
        <source>Include the content-to-position term of pos_att_type.</source>
        <translation>包含 pos_att_type 中的内容到位置项。</translation>
    </message>
    <message>
        <source>Position → content (p2c)</source>
        <translation>位置 → 内容 (p2c)</translation>
    </message>
    <message>
        <source>Include the position-to-content term of pos_att_type.</source>
        <translation>包含 pos_att_type 中的位置到内容项。</translation>
    </message>
    <message>
        <source>Projection seed</source>
        <translation>投影随机种子</translation>
    </message>
    <message>
        <source>Seed of the stand-in relative embeddings and projections.</source>
        <translation>替代用的相对位置嵌入和投影矩阵的随机种子。</translation>
    </message>
    <message>
        <source>Hidden size</source>
        <translation>隐藏层大小</translation>
    </message>
    <message>
        <source>Width of the learned position table.</source>
        <translation>可学习位置表的宽度。</translation>
    </message>
    <message>
        <source>Rows of the learned table (max_position_embeddings): positions beyond it have no embedding.</source>
        <translation>可学习位置表的行数 (max_position_embeddings)：超出该值的位置没有嵌入。</translation>
    </message>
    <message>
        <source>Table seed</source>
        <translation>位置表随机种子</translation>
    </message>
    <message>
        <source>Seed of the N(0, σ) stand-in for a trained table.</source>
        <translation>N(0, σ) 替代表（代替训练得到的表）的随机种子。</translation>
    </message>
    <message>
        <source>Table file</source>
        <translation>位置表文件</translation>
    </message>
    <message>
        <source>Dimension of queries and keys: the logit is q_i·k_j/√d, nothing else.</source>
        <translation>查询和键的维度：注意力分数 (logit) 就是 q_i·k_j/√d，别无其他。</translation>
    </message>
    <message>
        <source>Causal mask</source>
        <translation>因果掩码</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Number of positions N shown. Large N is downsampled to the view&apos;s pixels, never computed in full.</source>
        <translation>显示的位置数 N。N 较大时按视图像素降采样显示，不会完整计算。</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>注意力头</translation>
    </message>
    <message>
        <source>Attention head shown by single-panel views of per-head methods (ALiBi, T5).</source>
        <translation>对按头区分的方法（ALiBi、T5），单面板视图所显示的注意力头。</translation>
    </message>
    <message>
        <source>Ones (pure position)</source>
        <translation>全 1（纯位置）</translation>
    </message>
    <message>
        <source>Zero (position terms only)</source>
        <translation>全 0（仅位置项）</translation>
    </message>
    <message>
        <source>Fixed random vector</source>
        <translation>固定随机向量</translation>
    </message>
    <message>
        <source>Random per position</source>
        <translation>每个位置随机</translation>
    </message>
    <message>
        <source>Content vectors</source>
        <translation>内容向量</translation>
    </message>
    <message>
        <source>The query/key vectors positions are mixed with: ones show the pure positional pattern; zero keeps only position-position terms (p_i · p_j); random vectors show a real-looking sequence.</source>
        <translation>与位置混合的查询/键向量：全 1 显示纯位置模式；全 0 只保留位置–位置项 (p_i · p_j)；随机向量呈现接近真实序列的效果。</translation>
    </message>
    <message>
        <source>Content seed</source>
        <translation>内容随机种子</translation>
    </message>
    <message>
        <source>Seed of the random content vectors (same seed, same picture).</source>
        <translation>随机内容向量的随机种子（种子相同，图像相同）。</translation>
    </message>
    <message>
        <source>head_dim: rotary pairs = rotary_dim / 2, one frequency each (even).</source>
        <translation>head_dim：旋转维度对数 = rotary_dim / 2，每对一个频率（须为偶数）。</translation>
    </message>
    <message>
        <source>Base θ (rope_theta)</source>
        <translation>基数 θ (rope_theta)</translation>
    </message>
    <message>
        <source>rope_theta: pair i turns by θ_i = base^(-2i/d) per position. Larger bases make the slowest pairs slower (longer contexts).</source>
        <translation>rope_theta：维度对 i 每经过一个位置旋转 θ_i = base^(-2i/d)。基数越大，最慢的维度对转得越慢（适应更长的上下文）。</translation>
    </message>
    <message>
        <source>Partial rotary factor</source>
        <translation>部分旋转比例</translation>
    </message>
    <message>
        <source>Fraction of head_dim that is rotated (GPT-NeoX 0.25, Phi-2 0.4); the rest passes through.</source>
        <translation>head_dim 中参与旋转的比例（GPT-NeoX 为 0.25，Phi-2 为 0.4）；其余维度直接透传。</translation>
    </message>
    <message>
        <source>Pairing</source>
        <translation>配对方式</translation>
    </message>
    <message>
        <source>Which dimensions rotate together: (2i, 2i+1) as in RoFormer/Meta Llama, or (i, i + d/2) as in GPT-NeoX/Hugging Face.</source>
        <translation>哪些维度一起旋转：(2i, 2i+1)，如 RoFormer/Meta Llama；或 (i, i + d/2)，如 GPT-NeoX/Hugging Face。</translation>
    </message>
    <message>
        <source>Interleaved (2i, 2i+1)</source>
        <translation>交错 (2i, 2i+1)</translation>
    </message>
    <message>
        <source>Half (i, i + d/2)</source>
        <translation>分半 (i, i + d/2)</translation>
    </message>
    <message>
        <source>Scaling (rope_type)</source>
        <translation>缩放 (rope_type)</translation>
    </message>
    <message>
        <source>rope_scaling.rope_type: how the frequencies are changed to reach a longer context.</source>
        <translation>rope_scaling.rope_type：为达到更长上下文而修改频率的方式。</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认 (default)</translation>
    </message>
    <message>
        <source>linear (PI)</source>
        <translation>线性内插 PI (linear)</translation>
    </message>
    <message>
        <source>ntk</source>
        <translation>NTK-aware (ntk)</translation>
    </message>
    <message>
        <source>dynamic NTK</source>
        <translation>动态 NTK (dynamic)</translation>
    </message>
    <message>
        <source>yarn</source>
        <translation>YaRN (yarn)</translation>
    </message>
    <message>
        <source>llama3</source>
        <translation>Llama 3 (llama3)</translation>
    </message>
    <message>
        <source>longrope</source>
        <translation>LongRoPE (longrope)</translation>
    </message>
    <message>
        <source>Scaling factor s</source>
        <translation>缩放因子 s</translation>
    </message>
    <message>
        <source>rope_scaling.factor: target context / trained context.</source>
        <translation>rope_scaling.factor：目标上下文 / 训练上下文。</translation>
    </message>
    <message>
        <source>Model context</source>
        <translation>模型上下文</translation>
    </message>
    <message>
        <source>max_position_embeddings: the model&apos;s context (trained, or extended when original_max_position_embeddings is set).</source>
        <translation>max_position_embeddings：模型的上下文长度（训练长度；若设置了 original_max_position_embeddings，则为扩展后的长度）。</translation>
    </message>
    <message>
        <source>Original context</source>
        <translation>原始上下文</translation>
    </message>
    <message>
        <source>original_max_position_embeddings: the trained context before scaling (0: same as max positions).</source>
        <translation>original_max_position_embeddings：缩放前的训练上下文长度（0：与最大位置数相同）。</translation>
    </message>
    <message>
        <source>same as max</source>
        <translation>与最大值相同</translation>
    </message>
    <message>
        <source>Current length</source>
        <translation>当前长度</translation>
    </message>
    <message>
        <source>The sequence length seen at inference: dynamic NTK and LongRoPE change the frequencies once it exceeds the trained context (0: none).</source>
        <translation>推理时看到的序列长度：一旦超过训练上下文，dynamic NTK 和 LongRoPE 就会改变频率（0：无）。</translation>
    </message>
    <message>
        <source>β fast</source>
        <translation>β fast</translation>
    </message>
    <message>
        <source>rotations</source>
        <translation>圈</translation>
    </message>
    <message>
        <source>YaRN: pairs that complete more than β_fast rotations over the trained context are left unscaled (extrapolated).</source>
        <translation>YaRN：在训练上下文内旋转超过 β_fast 圈的维度对不做缩放（外推）。</translation>
    </message>
    <message>
        <source>β slow</source>
        <translation>β slow</translation>
    </message>
    <message>
        <source>YaRN: pairs that complete fewer than β_slow rotations are fully interpolated (divided by the factor).</source>
        <translation>YaRN：旋转少于 β_slow 圈的维度对完全内插（除以缩放因子）。</translation>
    </message>
    <message>
        <source>mscale</source>
        <translation>mscale</translation>
    </message>
    <message>
        <source>YaRN (DeepSeek): numerator coefficient of the attention temperature 0.1·mscale·ln(s) + 1 (unset: the default formula).</source>
        <translation>YaRN (DeepSeek)：注意力温度 0.1·mscale·ln(s) + 1 中分子的系数（未设置：使用默认公式）。</translation>
    </message>
    <message>
        <source>unset</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>mscale_all_dim</source>
        <translation>mscale_all_dim</translation>
    </message>
    <message>
        <source>YaRN (DeepSeek): denominator coefficient of the attention temperature (unset: not used).</source>
        <translation>YaRN (DeepSeek)：注意力温度中分母的系数（未设置：不使用）。</translation>
    </message>
    <message>
        <source>Attention factor</source>
        <translation>注意力因子</translation>
    </message>
    <message>
        <source>Explicit multiplier of cos/sin (logits scale by its square). Unset: derived from the factor.</source>
        <translation>cos/sin 的显式乘数（注意力分数按其平方缩放）。未设置：由缩放因子推导。</translation>
    </message>
    <message>
        <source>Truncate correction range</source>
        <translation>截断校正范围</translation>
    </message>
    <message>
        <source>YaRN: round the correction range to whole pairs (gpt-oss sets false).</source>
        <translation>YaRN：将校正范围取整到整数个维度对（gpt-oss 设为 false）。</translation>
    </message>
    <message>
        <source>Low-frequency factor</source>
        <translation>低频因子</translation>
    </message>
    <message>
        <source>Llama 3: wavelengths longer than original context / low_freq_factor are divided by the factor.</source>
        <translation>Llama 3：波长大于 原始上下文 / low_freq_factor 的维度对除以缩放因子。</translation>
    </message>
    <message>
        <source>High-frequency factor</source>
        <translation>高频因子</translation>
    </message>
    <message>
        <source>Llama 3: wavelengths shorter than original context / high_freq_factor are kept; between the two they are blended.</source>
        <translation>Llama 3：波长小于 原始上下文 / high_freq_factor 的维度对保持不变；介于两者之间的进行混合。</translation>
    </message>
    <message>
        <source>Short factors</source>
        <translation>短因子</translation>
    </message>
    <message>
        <source>LongRoPE: one divisor per rotary pair within the original context.</source>
        <translation>LongRoPE：原始上下文以内，每个旋转维度对一个除数。</translation>
    </message>
    <message>
        <source>Long factors</source>
        <translation>长因子</translation>
    </message>
    <message>
        <source>LongRoPE: one divisor per rotary pair beyond the original context.</source>
        <translation>LongRoPE：超出原始上下文时，每个旋转维度对一个除数。</translation>
    </message>
    <message>
        <source>Dimension of queries, keys and the relative embeddings a^K.</source>
        <translation>查询、键以及相对位置嵌入 a^K 的维度。</translation>
    </message>
    <message>
        <source>Clip distance k</source>
        <translation>截断距离 k</translation>
    </message>
    <message>
        <source>Relative distances are clipped to [-k, k]: beyond k every distance looks the same.</source>
        <translation>相对距离被截断到 [-k, k]：超过 k 后所有距离看起来都一样。</translation>
    </message>
    <message>
        <source>Seed of the relative embedding tables.</source>
        <translation>相对位置嵌入表的随机种子。</translation>
    </message>
    <message>
        <source>Model dimension d</source>
        <translation>模型维度 d</translation>
    </message>
    <message>
        <source>d_model: the number of sin/cos channels (even).</source>
        <translation>d_model：sin/cos 通道的数量（须为偶数）。</translation>
    </message>
    <message>
        <source>Base</source>
        <translation>基数</translation>
    </message>
    <message>
        <source>The 10000 of Vaswani et al.: wavelengths grow geometrically from 2π to 2π·base across the channels.</source>
        <translation>即 Vaswani et al. 中的 10000：各通道的波长从 2π 到 2π·base 呈几何增长。</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>布局</translation>
    </message>
    <message>
        <source>Interleaved sin/cos (the paper) or [sin | cos] halves (tensor2tensor).</source>
        <translation>sin/cos 交错排列（论文）或 [sin | cos] 分为两半（tensor2tensor）。</translation>
    </message>
    <message>
        <source>Interleaved sin/cos</source>
        <translation>sin/cos 交错</translation>
    </message>
    <message>
        <source>Split halves</source>
        <translation>分为两半</translation>
    </message>
    <message>
        <source>Buckets</source>
        <translation>桶数</translation>
    </message>
    <message>
        <source>relative_attention_num_buckets: half exact small distances, half log-spaced up to the max distance (even when bidirectional).</source>
        <translation>relative_attention_num_buckets：一半用于精确表示的小距离，一半按对数间隔分布直至最大距离（双向时也是如此）。</translation>
    </message>
    <message>
        <source>Max distance</source>
        <translation>最大距离</translation>
    </message>
    <message>
        <source>relative_attention_max_distance: every distance beyond it shares the last bucket.</source>
        <translation>relative_attention_max_distance：超过该值的所有距离共用最后一个桶。</translation>
    </message>
    <message>
        <source>Bidirectional (encoder)</source>
        <translation>双向（编码器）</translation>
    </message>
    <message>
        <source>Encoder: separate buckets for keys before and after the query. Decoder: causal, one side.</source>
        <translation>编码器：查询之前和之后的键使用各自的桶。解码器：因果，仅单侧。</translation>
    </message>
    <message>
        <source>Heads of the per-head bias table (one learned scalar per bucket and head).</source>
        <translation>按头偏置表的注意力头数（每个桶、每个头一个可学习标量）。</translation>
    </message>
    <message>
        <source>Bias seed</source>
        <translation>偏置随机种子</translation>
    </message>
    <message>
        <source>Seed of the stand-in bias table.</source>
        <translation>替代偏置表的随机种子。</translation>
    </message>
    <message>
        <source>Dimension of the sinusoid R_{i-j} (even).</source>
        <translation>正弦项 R_{i-j} 的维度（须为偶数）。</translation>
    </message>
    <message>
        <source>Base of the relative sinusoid R_{i-j}.</source>
        <translation>相对正弦项 R_{i-j} 的基数。</translation>
    </message>
    <message>
        <source>Seed of W_{k,R} and the biases u, v.</source>
        <translation>W_{k,R} 以及偏置 u、v 的随机种子。</translation>
    </message>
    <message>
        <source>(a) content × content</source>
        <translation>(a) 内容 × 内容</translation>
    </message>
    <message>
        <source>Term (a) of Dai et al. eq. 3: q_i·W_{k,E} x_j.</source>
        <translation>Dai et al. 式 3 中的 (a) 项：q_i·W_{k,E} x_j。</translation>
    </message>
    <message>
        <source>(b) content × position</source>
        <translation>(b) 内容 × 位置</translation>
    </message>
    <message>
        <source>Term (b): q_i·W_{k,R} R_{i-j}, the content-dependent positional bias.</source>
        <translation>(b) 项：q_i·W_{k,R} R_{i-j}，依赖内容的位置偏置。</translation>
    </message>
    <message>
        <source>(c) global content bias</source>
        <translation>(c) 全局内容偏置</translation>
    </message>
    <message>
        <source>Term (c): u·W_{k,E} x_j.</source>
        <translation>(c) 项：u·W_{k,E} x_j。</translation>
    </message>
    <message>
        <source>(d) global position bias</source>
        <translation>(d) 全局位置偏置</translation>
    </message>
    <message>
        <source>Term (d): v·W_{k,R} R_{i-j}, a pure function of the distance.</source>
        <translation>(d) 项：v·W_{k,R} R_{i-j}，仅为距离的函数。</translation>
    </message>
    <message>
        <source>head_dim: pairs (2p, 2p+1) rotate by θ_p and decay by ζ_p (even).</source>
        <translation>head_dim：维度对 (2p, 2p+1) 按 θ_p 旋转、按 ζ_p 衰减（须为偶数）。</translation>
    </message>
    <message>
        <source>Base θ</source>
        <translation>基数 θ</translation>
    </message>
    <message>
        <source>Rotation base: pair p turns by θ_p = base^(-2p/d) per position (10000 in the reference).</source>
        <translation>旋转基数：维度对 p 每经过一个位置旋转 θ_p = base^(-2p/d)（参考实现中为 10000）。</translation>
    </message>
    <message>
        <source>Scale base γ</source>
        <translation>缩放基数 γ</translation>
    </message>
    <message>
        <source>scale_base γ: pair p&apos;s logit is multiplied by ζ_p^((i−j)/γ), ζ_p = (2p + 0.4d)/(1.4d). Smaller γ: faster decay (512 in the reference).</source>
        <translation>scale_base γ：维度对 p 的注意力分数乘以 ζ_p^((i−j)/γ)，ζ_p = (2p + 0.4d)/(1.4d)。γ 越小，衰减越快（参考实现中为 512）。</translation>
    </message>
    <message>
        <source>Decoder: keys after the query are masked (their factor ζ^((i−j)/γ) would grow without bound).</source>
        <translation>解码器：查询之后的键被掩码（它们的因子 ζ^((i−j)/γ) 会无限增长）。</translation>
    </message>
    <message>
        <source>A trained position table (.csv or .npy, one row per position, or a .safetensors checkpoint or its model.safetensors.index.json); overrides the seed.</source>
        <translation>训练得到的位置表（.csv 或 .npy，每行对应一个位置；或 .safetensors 检查点及其 model.safetensors.index.json）；设置后将覆盖随机种子。</translation>
    </message>
    <message>
        <source>Checkpoint tensor</source>
        <translation>检查点张量</translation>
    </message>
    <message>
        <source>The tensor of a .safetensors table file (e.g. wpe.weight); empty: the position table of a known architecture (GPT-2, BERT, OPT).</source>
        <translation>.safetensors 表文件中的张量（例如 wpe.weight）；留空：使用已知架构（GPT-2、BERT、OPT）的位置表。</translation>
    </message>
    <message>
        <source>Sentence</source>
        <translation>句子</translation>
    </message>
    <message>
        <source>Words as positions: each word (each character of Chinese) is a token with its own seeded query and key vectors, the same word the same vectors; the sequence length becomes the number of tokens. Empty: no sentence.</source>
        <translation>以词为位置：每个词（中文为每个字）是一个词元，带有各自的种子查询向量和键向量，相同的词对应相同的向量；序列长度变为词元数。留空：不使用句子。</translation>
    </message>
    <message>
        <source>Head slopes</source>
        <translation>各头斜率</translation>
    </message>
    <message>
        <source>Each head&apos;s slope m (before the length scaling and the slope scale). A larger slope makes the head look less far back. Unset heads keep the paper&apos;s 2^(-8h/n).</source>
        <translation>每个头的斜率 m（在长度缩放和斜率缩放之前）。斜率越大，该头向前看得越近。未设置的头保持论文中的 2^(-8h/n)。</translation>
    </message>
    <message>
        <source>Queries file</source>
        <translation>查询文件</translation>
    </message>
    <message>
        <source>Your own queries, N x d, one row per position (.npy float16/32/64, .csv, or a .safetensors file with its tensor named); with the keys file they replace the seeded content for every method.</source>
        <translation>您自己的查询向量，N × d，每个位置一行（.npy float16/32/64、.csv，或指定张量名的 .safetensors 文件）；与键文件一起，替换所有方法的种子内容向量。</translation>
    </message>
    <message>
        <source>Queries tensor</source>
        <translation>查询张量</translation>
    </message>
    <message>
        <source>The tensor of a .safetensors queries file.</source>
        <translation>.safetensors 查询文件中的张量。</translation>
    </message>
    <message>
        <source>Keys file</source>
        <translation>键文件</translation>
    </message>
    <message>
        <source>Your own keys, N x d, one row per position, in the formats of the queries file.</source>
        <translation>您自己的键向量，N × d，每个位置一行，格式与查询文件相同。</translation>
    </message>
    <message>
        <source>Keys tensor</source>
        <translation>键张量</translation>
    </message>
    <message>
        <source>The tensor of a .safetensors keys file.</source>
        <translation>.safetensors 键文件中的张量。</translation>
    </message>
    <message>
        <source>Trained bias table</source>
        <translation>训练所得偏置表</translation>
    </message>
    <message>
        <source>A trained relative_attention_bias (buckets x heads): a .safetensors checkpoint or its model.safetensors.index.json, or a .csv / .npy table; overrides the seed and sets the bucket and head counts.</source>
        <translation>训练所得的 relative_attention_bias（桶数 × 头数）：.safetensors 检查点或其 model.safetensors.index.json，或 .csv / .npy 表；取代随机种子，并决定桶数与头数。</translation>
    </message>
    <message>
        <source>The tensor of a .safetensors checkpoint; empty: the encoder&apos;s layer-0 relative_attention_bias, else the decoder&apos;s.</source>
        <translation>.safetensors 检查点中的张量；留空时取编码器第 0 层的 relative_attention_bias，没有则取解码器的。</translation>
    </message>
    <message>
        <source>position embeddings table</source>
        <translation>位置嵌入表</translation>
    </message>
    <message>
        <source>CoPE&apos;s position embeddings e[0..npos_max-1] from a file: npos_max x head_dim, row r = e[r] (the reference stores pos_emb as 1 x head_dim x npos_max: transpose it). Overrides the seeded table.</source>
        <translation>从文件读取 CoPE 的位置嵌入 e[0..npos_max-1]：npos_max × head_dim，第 r 行为 e[r]（参考实现把 pos_emb 存为 1 × head_dim × npos_max，需要先转置）。替换随机种子生成的表。</translation>
    </message>
    <message>
        <source>relative embeddings table</source>
        <translation>相对位置嵌入表</translation>
    </message>
    <message>
        <source>DeBERTa&apos;s rel_embeddings from a file: 2 att_span x e (e = hidden_size in a checkpoint; without a tensor name a checkpoint&apos;s deberta.encoder.rel_embeddings.weight). Overrides the seeded table; LayerNorm is not applied.</source>
        <translation>从文件读取 DeBERTa 的 rel_embeddings：2 att_span × e（检查点中 e = hidden_size；未给张量名时取检查点的 deberta.encoder.rel_embeddings.weight）。替换随机种子生成的表；不做 LayerNorm。</translation>
    </message>
    <message>
        <source>W_k table (relative keys)</source>
        <translation>W_k 表（相对位置的键）</translation>
    </message>
    <message>
        <source>One head&apos;s slice of the key projection applied to the relative embeddings (pos_key_proj, or key_proj with share_att_key): head_dim x e. Overrides the seeded W_k.</source>
        <translation>作用于相对位置嵌入的键投影中一个头的切片（pos_key_proj；share_att_key 时为 key_proj）：head_dim × e。替换随机种子生成的 W_k。</translation>
    </message>
    <message>
        <source>W_q table (relative queries)</source>
        <translation>W_q 表（相对位置的查询）</translation>
    </message>
    <message>
        <source>One head&apos;s slice of the query projection applied to the relative embeddings (pos_query_proj, or query_proj with share_att_key): head_dim x e. Overrides the seeded W_q.</source>
        <translation>作用于相对位置嵌入的查询投影中一个头的切片（pos_query_proj；share_att_key 时为 query_proj）：head_dim × e。替换随机种子生成的 W_q。</translation>
    </message>
    <message>
        <source>a^K table</source>
        <translation>a^K 表</translation>
    </message>
    <message>
        <source>The relative key embeddings w^K_{-k..k} from a file: (2k + 1) x head_dim, row r + k for relative position r; overrides the seeded a^K.</source>
        <translation>从文件读取相对位置的键嵌入 w^K_{-k..k}：(2k + 1) × head_dim，相对位置 r 在第 r + k 行；替换随机种子生成的 a^K。</translation>
    </message>
    <message>
        <source>a^V table</source>
        <translation>a^V 表</translation>
    </message>
    <message>
        <source>The relative value embeddings w^V_{-k..k} from a file: (2k + 1) x head_dim; overrides the seeded a^V.</source>
        <translation>从文件读取相对位置的值嵌入 w^V_{-k..k}：(2k + 1) × head_dim；替换随机种子生成的 a^V。</translation>
    </message>
    <message>
        <source>The tensor of a .safetensors checkpoint holding the table above.</source>
        <translation>.safetensors 检查点中存放上述表的张量。</translation>
    </message>
    <message>
        <source>W_{k,R} table</source>
        <translation>W_{k,R} 表</translation>
    </message>
    <message>
        <source>The projection of the relative sinusoid (r_net in the original code) from a file: head_dim x e, e even; R_{i-j} then has e dimensions. Overrides the seeded W_{k,R}.</source>
        <translation>从文件读取相对正弦编码的投影（原始代码中的 r_net）：head_dim × e，e 为偶数；此时 R_{i-j} 为 e 维。替换随机种子生成的 W_{k,R}。</translation>
    </message>
    <message>
        <source>u table</source>
        <translation>u 表</translation>
    </message>
    <message>
        <source>The global content bias u (r_w_bias) from a file: head_dim values. Overrides the seeded u.</source>
        <translation>从文件读取全局内容偏置 u（r_w_bias）：head_dim 个数。替换随机种子生成的 u。</translation>
    </message>
    <message>
        <source>v table</source>
        <translation>v 表</translation>
    </message>
    <message>
        <source>The global position bias v (r_r_bias) from a file: head_dim values. Overrides the seeded v.</source>
        <translation>从文件读取全局位置偏置 v（r_r_bias）：head_dim 个数。替换随机种子生成的 v。</translation>
    </message>
    <message>
        <source>Softmax scale × mscale² (DeepSeek)</source>
        <translation>softmax 缩放 × mscale²（DeepSeek）</translation>
    </message>
    <message>
        <source>DeepSeek-V2/V3 attention: the softmax scale 1/√d is also multiplied by (0.1·mscale_all_dim·ln s + 1)², beside the attention factor on cos and sin (DeepseekV3Attention in transformers). Needs mscale_all_dim.</source>
        <translation>DeepSeek-V2/V3 的注意力：softmax 缩放 1/√d 还要再乘以 (0.1·mscale_all_dim·ln s + 1)²，与作用于 cos 和 sin 的注意力因子并存（见 transformers 的 DeepseekV3Attention）。需要设置 mscale_all_dim。</translation>
    </message>
    <message>
        <source>A decoder&apos;s mask: keys after the query get attention weight 0 and each row sums to 1 over the keys up to the query; off, every key is seen. NoPE has no mask of its own: this switch masks its logits too. Other methods&apos; own masks shape their logits.</source>
        <translation>解码器的掩码：查询之后的键注意力权重为 0，每行在查询及其之前的键上和为 1；关闭时可见所有键。NoPE 没有自己的掩码：这个开关同时遮住它的注意力分数。其他方法自带的掩码决定它们自己的注意力分数。</translation>
    </message>
    <message>
        <source>Compare with permuted sentence</source>
        <translation>与置换后的句子对比</translation>
    </message>
    <message>
        <source>The same words in another order, e.g. &quot;the man bit the dog&quot;: the heatmap shows both sentences side by side and links each word&apos;s rows. Without positions (NoPE) the linked rows hold the same numbers. Empty: one sentence.</source>
        <translation>同样的词换一种顺序，例如“人咬狗”：热力图把两个句子并排显示，并把同一个词的行连起来。没有位置信息（NoPE）时，相连的两行数值完全相同。留空：只显示一个句子。</translation>
    </message>
    <message>
        <source>Token layout</source>
        <translation>词元布局</translation>
    </message>
    <message>
        <source>The sequence as items text:N, image:T×H×W, video:T×H×W (grid_thw in patches before the spatial merge; a video may end in @seconds), e.g. text:5,image:1x4x6,text:3. Tokens after it are text.</source>
        <translation>序列写成若干项 text:N、image:T×H×W、video:T×H×W（grid_thw 以空间合并前的图像块计；视频可在末尾加 @秒数），例如 text:5,image:1x4x6,text:3。其后的词元都是文本。</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <source>Qwen2-VL: chunked sections, frame index as time. Qwen2.5-VL: chunked, time ids in seconds × tokens_per_second. Qwen3-VL: interleaved sections, each video frame its own grid.</source>
        <translation>Qwen2-VL：分块分段，时间编号为帧序号。Qwen2.5-VL：分块，时间编号为秒数 × tokens_per_second。Qwen3-VL：交错分段，视频每一帧各成一个网格。</translation>
    </message>
    <message>
        <source>Qwen2-VL (chunked)</source>
        <translation>Qwen2-VL（分块）</translation>
    </message>
    <message>
        <source>Qwen2.5-VL (chunked, time-aligned)</source>
        <translation>Qwen2.5-VL（分块，时间对齐）</translation>
    </message>
    <message>
        <source>Qwen3-VL (interleaved)</source>
        <translation>Qwen3-VL（交错）</translation>
    </message>
    <message>
        <source>Sections (t, h, w)</source>
        <translation>分段 (t, h, w)</translation>
    </message>
    <message>
        <source>Spatial merge</source>
        <translation>空间合并</translation>
    </message>
    <message>
        <source>patches</source>
        <translation>块</translation>
    </message>
    <message>
        <source>vision_config.spatial_merge_size: m × m patches become one token, so an H × W grid has (H/m)·(W/m) tokens.</source>
        <translation>vision_config.spatial_merge_size：m × m 个图像块合并为一个词元，所以 H × W 的网格有 (H/m)·(W/m) 个词元。</translation>
    </message>
    <message>
        <source>Tokens per second</source>
        <translation>每秒词元数</translation>
    </message>
    <message>
        <source>Qwen2.5-VL vision_config.tokens_per_second: time ids per second of video.</source>
        <translation>Qwen2.5-VL 的 vision_config.tokens_per_second：视频每秒对应的时间编号数。</translation>
    </message>
    <message>
        <source>Seconds per frame grid</source>
        <translation>每个帧网格的秒数</translation>
    </message>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>Qwen2.5-VL second_per_grid_ts of a video (temporal_patch_size / fps); transformers truncates it to a whole number before the product.</source>
        <translation>Qwen2.5-VL 中视频的 second_per_grid_ts（temporal_patch_size / fps）；transformers 在相乘之前把它截断为整数。</translation>
    </message>
    <message>
        <source>rope_theta: pair i turns by θ_i = base^(-2i/d) per id (Qwen2-VL 10⁶).</source>
        <translation>rope_theta：第 i 对每个编号转过 θ_i = base^(-2i/d)（Qwen2-VL 为 10⁶）。</translation>
    </message>
    <message>
        <source>head_dim: head_dim / 2 rotary pairs, shared out by mrope_section.</source>
        <translation>head_dim：共 head_dim / 2 个旋转维度对，由 mrope_section 分配。</translation>
    </message>
    <message>
        <source>mrope_section: rotary pairs given to time, rows and columns (Qwen2-VL 16,24,24; Qwen3-VL 24,20,20). Empty: the variant&apos;s split for this head dimension.</source>
        <translation>mrope_section：分给时间、行、列的旋转维度对数（Qwen2-VL 为 16,24,24；Qwen3-VL 为 24,20,20）。留空：按该变体的比例随头维度分配。</translation>
    </message>
    <message>
        <source>Position-free dimensions</source>
        <translation>无位置维度</translation>
    </message>
    <message>
        <source>qk_nope_head_dim: the part of each query and key without position (DeepSeek-V3 128).</source>
        <translation>qk_nope_head_dim：每个查询和键中不带位置信息的部分（DeepSeek-V3 为 128）。</translation>
    </message>
    <message>
        <source>Rotary dimensions</source>
        <translation>旋转维度</translation>
    </message>
    <message>
        <source>qk_rope_head_dim: the decoupled RoPE part of each query and key, rotated by position (DeepSeek-V3 64).</source>
        <translation>qk_rope_head_dim：每个查询和键中解耦出来的 RoPE 部分，按位置旋转（DeepSeek-V3 为 64）。</translation>
    </message>
    <message>
        <source>Interleaved (rope_interleave)</source>
        <translation>交错（rope_interleave）</translation>
    </message>
    <message>
        <source>rope_interleave: rotate (2i, 2i+1) as DeepSeek&apos;s weights are laid out (apply_rotary_pos_emb_interleave); off: (i, i + d/2).</source>
        <translation>rope_interleave：按 DeepSeek 权重的排列方式旋转 (2i, 2i+1) 这一对（apply_rotary_pos_emb_interleave）；关闭时旋转 (i, i + d/2)。</translation>
    </message>
    <message>
        <source>rope_scaling.original_max_position_embeddings: the context YaRN&apos;s ramp is measured against.</source>
        <translation>rope_scaling.original_max_position_embeddings：YaRN 的过渡区间以这个上下文长度为基准来衡量。</translation>
    </message>
    <message>
        <source>YaRN (DeepSeek): the softmax scale is multiplied by (0.1·mscale_all_dim·ln s + 1)², and cos and sin by get_mscale(s, mscale) / get_mscale(s, mscale_all_dim) (unset or 0: no softmax multiplier).</source>
        <translation>YaRN（DeepSeek）：softmax 缩放乘以 (0.1·mscale_all_dim·ln s + 1)²，cos 和 sin 乘以 get_mscale(s, mscale) / get_mscale(s, mscale_all_dim)（未设置或为 0 时，softmax 缩放不额外相乘）。</translation>
    </message>
    <message>
        <source>Kept frequencies p (p-RoPE)</source>
        <translation>保留频率比例 p（p-RoPE）</translation>
    </message>
    <message>
        <source>p-RoPE (Barbero et al. 2024): the fraction of the frequencies kept, the highest ones; the lowest pairs do not rotate. Gemma 4&apos;s proportional RoPE is p = 0.25. 1: plain RoPE.</source>
        <translation>p-RoPE（Barbero 等，2024）：保留的频率所占比例，保留的是最高的那些频率；最低频率的维度对不再旋转。Gemma 4 的比例 RoPE 即 p = 0.25。取 1 时就是普通的 RoPE。</translation>
    </message>
    <message>
        <source>None (every earlier key)</source>
        <translation>不加窗口（看到前面所有的键）</translation>
    </message>
    <message>
        <source>Sliding window</source>
        <translation>滑动窗口</translation>
    </message>
    <message>
        <source>Chunks</source>
        <translation>分块</translation>
    </message>
    <message>
        <source>Attention window</source>
        <translation>注意力窗口</translation>
    </message>
    <message>
        <source>Narrows the causal mask as a model&apos;s layer does (transformers masking_utils): a sliding window lets the query see only the last W keys, itself included (q - k &lt; W); chunks let it see only the earlier keys of its own chunk of C positions (k / C = q / C). Choosing one turns the causal mask on. Masked logits are drawn as masked cells and get attention weight 0.</source>
        <translation>像模型的某一层那样把因果掩码再收窄（transformers 的 masking_utils）：滑动窗口让查询只看最近的 W 个键，自己也算在内（q - k &lt; W）；分块让查询只看自己所在的那一块（每块 C 个位置）里不晚于它的键（k / C = q / C）。选了其中一种，因果掩码会自动打开。被遮住的 logit 画成掩码格子，注意力权重为 0。</translation>
    </message>
    <message>
        <source>Window size</source>
        <translation>窗口大小</translation>
    </message>
    <message>
        <source>W, the keys a sliding window shows (sliding_window in config.json), or C, the positions of a chunk (attention_chunk_size).</source>
        <translation>滑动窗口里能看到的键数 W（config.json 里的 sliding_window），或者每一块的位置数 C（attention_chunk_size）。</translation>
    </message>
    <message>
        <source>Attention temperature</source>
        <translation>注意力温度</translation>
    </message>
    <message>
        <source>Llama 4&apos;s temperature tuning (Llama4TextAttention): the query at position p is multiplied by log(floor((p + 1) / floor_scale) + 1) · attn_scale + 1, so later queries attend more sharply. Applied to NoPE and RoPE, whose logits scale with the query.</source>
        <translation>Llama 4 的温度调节（Llama4TextAttention）：位置 p 上的查询要乘以 log(floor((p + 1) / floor_scale) + 1) · attn_scale + 1，所以越靠后的查询，注意力越集中。只用在 NoPE 和 RoPE 上，因为它们的 logit 会随查询按比例变化。</translation>
    </message>
    <message>
        <source>Temperature floor scale</source>
        <translation>温度的取整步长</translation>
    </message>
    <message>
        <source>floor_scale: the temperature grows one step every floor_scale positions (8192 in Llama 4); below floor_scale - 1 it is 1.</source>
        <translation>floor_scale：每过 floor_scale 个位置，温度升一级（Llama 4 里是 8192）；位置小于 floor_scale - 1 时，温度就是 1。</translation>
    </message>
    <message>
        <source>Temperature scale</source>
        <translation>温度系数</translation>
    </message>
    <message>
        <source>Pixtral: pairs (i, i + d/2), rows on the even frequencies θ₀, θ₂, …, columns on the odd ones. Llama 4: adjacent pairs, columns on the first quarter of the dimensions, rows on the second, the same frequencies.</source>
        <translation>Pixtral：维度对为 (i, i + d/2)，行用偶数序号的频率 θ₀、θ₂、…，列用奇数序号的频率。Llama 4：相邻两维组成一对，前四分之一的维度给列，接下来的四分之一给行，两者频率相同。</translation>
    </message>
    <message>
        <source>Pixtral</source>
        <translation>Pixtral</translation>
    </message>
    <message>
        <source>Llama 4 vision</source>
        <translation>Llama 4 视觉编码器</translation>
    </message>
    <message>
        <source>Grid rows</source>
        <translation>网格行数</translation>
    </message>
    <message>
        <source>Rows of patches (image height / patch size). Choosing it sets the sequence to rows × columns patches; patches past it continue on further rows.</source>
        <translation>图像块的行数（图像高度 / 图像块大小）。设置它会把序列长度设为 行数 × 列数 个图像块；超出的图像块接着排到后面的行。</translation>
    </message>
    <message>
        <source>Grid columns</source>
        <translation>网格列数</translation>
    </message>
    <message>
        <source>Columns of patches (image width / patch size): patch p sits at row p / columns and column p mod columns.</source>
        <translation>图像块的列数（图像宽度 / 图像块大小）：第 p 个图像块位于第 p / 列数 行、第 p mod 列数 列。</translation>
    </message>
    <message>
        <source>rope_theta of the vision encoder (Pixtral and Llama 4: 10000).</source>
        <translation>视觉编码器的 rope_theta（Pixtral 和 Llama 4 都是 10000）。</translation>
    </message>
    <message>
        <source>head_dim, a multiple of 4: a quarter of the dimensions (half of the pairs) turns with the row, a quarter with the column.</source>
        <translation>head_dim，必须是 4 的倍数：四分之一的维度（一半的维度对）随行旋转，另外四分之一随列旋转。</translation>
    </message>
    <message>
        <source>Heads, each with its own frequencies (the random start: one direction per head).</source>
        <translation>注意力头数，每个头有自己的一组频率（随机初始值：每个头一个方向）。</translation>
    </message>
    <message>
        <source>The start&apos;s magnitudes θ^(-4j/d) (RoPE-Mixed: 10). Unused with a trained table.</source>
        <translation>初始频率的大小 θ^(-4j/d)（RoPE-Mixed 取 10）。使用训练好的频率表时不起作用。</translation>
    </message>
    <message>
        <source>head_dim, a multiple of 4: head_dim / 2 rotary pairs.</source>
        <translation>head_dim，必须是 4 的倍数：共 head_dim / 2 个旋转维度对。</translation>
    </message>
    <message>
        <source>Direction seed</source>
        <translation>方向随机种子</translation>
    </message>
    <message>
        <source>Seed of the heads&apos; random directions (the start).</source>
        <translation>各注意力头随机方向（初始值）的随机种子。</translation>
    </message>
    <message>
        <source>Frequency table</source>
        <translation>频率表</translation>
    </message>
    <message>
        <source>Trained frequencies of one layer from a file: 2 × (heads · head_dim/2), row 0 θx and row 1 θy, head after head (freqs[:, layer, :] of a RoPE-Mixed checkpoint); overrides the seeded start.</source>
        <translation>从文件读入某一层训练好的频率：2 × (头数 · head_dim/2)，第 0 行是 θx，第 1 行是 θy，各注意力头依次排列（即 RoPE-Mixed 检查点中的 freqs[:, layer, :]）；它会取代带随机种子的初始值。</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>window_size M: attention inside M × M patches (Swin-T: 7). Choosing it sets the sequence to one window, M² patches.</source>
        <translation>window_size M：注意力只在 M × M 个图像块内计算（Swin-T 为 7）。设置它会把序列设为一个窗口，即 M² 个图像块。</translation>
    </message>
    <message>
        <source>Heads: one column of the bias table each (Swin-T&apos;s first stage: 3).</source>
        <translation>注意力头数：每个头对应偏置表的一列（Swin-T 第一阶段为 3）。</translation>
    </message>
    <message>
        <source>Dimension of queries and keys of the content term q_i·k_j/√d (Swin-T: 32).</source>
        <translation>内容项 q_i·k_j/√d 中查询和键的维度（Swin-T 为 32）。</translation>
    </message>
    <message>
        <source>Bias table</source>
        <translation>偏置表</translation>
    </message>
    <message>
        <source>A trained relative_position_bias_table from a file: (2M − 1)² × heads; overrides the seeded start (File &gt; Open Weights… takes the window and the heads from its shape).</source>
        <translation>从文件读入训练好的 relative_position_bias_table：(2M − 1)² × 头数；它会取代带随机种子的初始值（“文件 &gt; 打开权重…”会根据它的形状设定窗口大小和头数）。</translation>
    </message>
    <message>
        <source>attn_scale: the weight of the logarithm (0.1 in Llama 4).</source>
        <translation>attn_scale：对数项前面的系数（Llama 4 里是 0.1）。</translation>
    </message>
    <message>
        <source>Grid side</source>
        <translation>网格边长</translation>
    </message>
    <message>
        <source>Patches along each side of the image (image_size / patch_size; ViT-B/16 at 224 pixels: 14). Choosing it sets the sequence to its side × side patches; a table file sets it from its 1 + side² rows.</source>
        <translation>图像每条边上的图像块数（image_size / patch_size；ViT-B/16 在 224 像素下为 14）。设置它会把序列长度设为 边长 × 边长 个图像块；载入表文件时，由表的 1 + 边长² 行确定。</translation>
    </message>
    <message>
        <source>Width D of the position vectors (ViT-B: 768); a table file sets it from its columns.</source>
        <translation>位置向量的维度 D（ViT-B：768）；载入表文件时，由表的列数确定。</translation>
    </message>
    <message>
        <source>Seed of the truncated N(0, σ) stand-in for a trained table (ViT&apos;s trunc_normal_).</source>
        <translation>截断 N(0, σ) 替代表（代替训练得到的表，即 ViT 的 trunc_normal_）的随机种子。</translation>
    </message>
    <message>
        <source>Position table</source>
        <translation>位置表</translation>
    </message>
    <message>
        <source>A trained position_embeddings table from a file: 1 + side² rows (the CLS token&apos;s, then the patches row by row) × D; overrides the seeded start and sets the grid and the width.</source>
        <translation>从文件读入训练好的 position_embeddings 表：1 + 边长² 行（先是 CLS 词元的一行，再按行排列各图像块）× D；它会取代带随机种子的初始值，并确定网格和维度。</translation>
    </message>
</context>
<context>
    <name>ParameterPanel</name>
    <message>
        <source>Unit: %1</source>
        <translation>单位：%1</translation>
    </message>
    <message>
        <source>Key: %1</source>
        <translation>键名：%1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>Python</name>
    <message>
        <source>%1 must be %2 (got %3 %4)</source>
        <translation>%1 必须是 %2（当前为 %3 %4）</translation>
    </message>
    <message>
        <source>True or False</source>
        <translation>True 或 False</translation>
    </message>
    <message>
        <source>an integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>a list of numbers</source>
        <translation>数值列表</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>a value</source>
        <translation>一个值</translation>
    </message>
    <message>
        <source>Scenario has no field %1 (posatlas.fields() lists them)</source>
        <translation>Scenario 没有字段 %1（posatlas.fields() 列出全部字段）</translation>
    </message>
    <message>
        <source>the first argument must be a posatlas.Scenario (got %1)</source>
        <translation>第一个参数必须是 posatlas.Scenario（当前为 %1）</translation>
    </message>
    <message>
        <source>%1() got an unexpected keyword argument %2</source>
        <translation>%1() 不接受关键字参数 %2</translation>
    </message>
    <message>
        <source>%1 needs --method %2 (the scenario&apos;s method is %3)</source>
        <translation>%1 需要 --method %2（当前场景的方法是 %3）</translation>
    </message>
    <message>
        <source>--out: the format of %1 must be one of png|svg|pdf|csv|json</source>
        <translation>--out：%1 的格式必须是 png|svg|pdf|csv|json 之一</translation>
    </message>
    <message>
        <source>the lab is not installed: this build of posatlas has no posatlas-lab</source>
        <translation>实验室未安装：这个 posatlas 版本不含 posatlas-lab</translation>
    </message>
    <message>
        <source>%1 is not a lab run folder (it has no config.json)</source>
        <translation>%1 不是实验室的运行文件夹（其中没有 config.json）</translation>
    </message>
    <message>
        <source>training stopped: %1 is %2 at step %3 of %4</source>
        <translation>训练已停止：%1 的状态为 %2，停在第 %3 步（共 %4 步）</translation>
    </message>
    <message>
        <source>posatlas-lab stopped with exit status %1 (its message is above)</source>
        <translation>posatlas-lab 已退出，退出状态 %1（原因见上方输出）</translation>
    </message>
</context>
<context>
    <name>TableAdoption</name>
    <message>
        <source>Learned position table (positions × dimensions)</source>
        <translation>可学习的位置表（位置 × 维度）</translation>
    </message>
    <message>
        <source>Use as Learned Table</source>
        <translation>用作可学习位置表</translation>
    </message>
    <message>
        <source>The learned method will show %1 instead of its seeded stand-in (one undo step).</source>
        <translation>可学习方法将显示 %1，而不是随机种子生成的替代表（一步撤销）。</translation>
    </message>
    <message>
        <source>T5 bias table (buckets × heads)</source>
        <translation>T5 偏置表（桶 × 头）</translation>
    </message>
    <message>
        <source>Use as T5 Bias Table</source>
        <translation>用作 T5 偏置表</translation>
    </message>
    <message>
        <source>The T5 method will show %1 instead of its seeded stand-in; its bucket and head counts follow the table (one undo step).</source>
        <translation>T5 方法将显示 %1，取代随机生成的替身；桶数与头数随该表而定（一步撤销）。</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::AnimationDialog</name>
    <message>
        <source>Query position m</source>
        <translation>查询位置 m</translation>
    </message>
    <message>
        <source>Key position n</source>
        <translation>键位置 n</translation>
    </message>
    <message>
        <source>Export Animation</source>
        <translation>导出动画</translation>
    </message>
    <message>
        <source>The value that changes from frame to frame; every other value stays as it is</source>
        <translation>逐帧变化的那个值；其他值都保持不变</translation>
    </message>
    <message>
        <source>&amp;Log steps</source>
        <translation>对数步长(&amp;L)</translation>
    </message>
    <message>
        <source>Equal ratios between frames (from and to above 0) instead of equal differences</source>
        <translation>相邻两帧之间比值相等（起点和终点都须大于 0），而不是差值相等</translation>
    </message>
    <message>
        <source>to</source>
        <translation>到</translation>
    </message>
    <message>
        <source> fps</source>
        <translation> 帧/秒</translation>
    </message>
    <message>
        <source>frames at</source>
        <translation>帧，帧率</translation>
    </message>
    <message>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <source>CSS pixels (1/96 inch): the figure&apos;s layout size. Frame pixels = this × dpi / 96</source>
        <translation>CSS 像素（1/96 英寸）：图表的版面尺寸。每帧像素 = 此值 × dpi / 96</translation>
    </message>
    <message>
        <source> dpi</source>
        <translation> dpi</translation>
    </message>
    <message>
        <source>96 dpi = 1x, 192 = 2x: the same layout at more pixels</source>
        <translation>96 dpi = 1 倍，192 = 2 倍：版面相同，像素更多</translation>
    </message>
    <message>
        <source>MP4 video (H.264)</source>
        <translation>MP4 视频 (H.264)</translation>
    </message>
    <message>
        <source>GIF</source>
        <translation>GIF</translation>
    </message>
    <message>
        <source>Animated PNG</source>
        <translation>动画 PNG</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>&amp;Moving value:</source>
        <translation>变化的量(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;From:</source>
        <translation>从(&amp;F)：</translation>
    </message>
    <message>
        <source>Fra&amp;mes:</source>
        <translation>帧数(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;Size:</source>
        <translation>尺寸(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Resolution:</source>
        <translation>分辨率(&amp;R)：</translation>
    </message>
    <message>
        <source>F&amp;ormat:</source>
        <translation>格式(&amp;O)：</translation>
    </message>
    <message>
        <source>F&amp;ile:</source>
        <translation>文件(&amp;I)：</translation>
    </message>
    <message>
        <source>Preview (the first frames):</source>
        <translation>预览（前几帧）：</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>MP4 video (*.mp4);;GIF (*.gif);;Animated PNG (*.png *.apng)</source>
        <translation>MP4 视频 (*.mp4);;GIF (*.gif);;动画 PNG (*.png *.apng)</translation>
    </message>
    <message>
        <source>Export animation</source>
        <translation>导出动画</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not a number</source>
        <translation>%1：“%2”不是数字</translation>
    </message>
    <message>
        <source>Frames (frames)</source>
        <translation>帧数 (frames)</translation>
    </message>
    <message>
        <source>Frames per second (fps)</source>
        <translation>帧率 (fps)</translation>
    </message>
    <message>
        <source>The frame&apos;s width in pixels (width = size × dpi / 96)</source>
        <translation>每帧的宽度像素数（width = 尺寸 × dpi / 96）</translation>
    </message>
    <message>
        <source>The frame&apos;s height in pixels (height = size × dpi / 96)</source>
        <translation>每帧的高度像素数（height = 尺寸 × dpi / 96）</translation>
    </message>
    <message>
        <source>%1 must be %2 (got %3)</source>
        <translation>%1 必须是 %2（当前为 %3）</translation>
    </message>
    <message>
        <source>No preview: %1</source>
        <translation>无法预览：%1</translation>
    </message>
    <message>
        <source>%1 frames of %2 × %3 pixels, %4 s.</source>
        <translation>共 %1 帧，每帧 %2 × %3 像素，时长 %4 秒。</translation>
    </message>
    <message>
        <source>Choose a file name.</source>
        <translation>请选择文件名。</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message>
        <source>Export cancelled: no file was written.</source>
        <translation>导出已取消：没有写出任何文件。</translation>
    </message>
    <message>
        <source>Cancel export</source>
        <translation>取消导出</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Replace the existing file?
%1</source>
        <translation>要替换已有的文件吗？
%1</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::AnimationExport</name>
    <message>
        <source>query position m</source>
        <translation>查询位置 m</translation>
    </message>
    <message>
        <source>key position n</source>
        <translation>键位置 n</translation>
    </message>
    <message>
        <source>%1 = %2</source>
        <translation>%1 = %2</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::AnimationPreview</name>
    <message>
        <source>Computing the preview…</source>
        <translation>正在计算预览…</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::AnimationRun</name>
    <message>
        <source>%1 must be %2 (got %3)</source>
        <translation>%1 必须是 %2（当前为 %3）</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::Autosave</name>
    <message>
        <source>Autosave to %1 failed: %2</source>
        <translation>自动保存到 %1 失败：%2</translation>
    </message>
    <message>
        <source>not a folder</source>
        <translation>不是文件夹</translation>
    </message>
    <message>
        <source>cannot create the folder %1: %2</source>
        <translation>无法创建文件夹 %1：%2</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>another PosAtlas (process %1) is running and autosaving to %2; the work in this window is not autosaved (Retry once it has closed)</source>
        <translation>另一个 PosAtlas（进程 %1）正在运行并自动保存到 %2；本窗口的工作不会自动保存（待它关闭后点“重试”）</translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation>权限不足</translation>
    </message>
    <message>
        <source>the lock file could not be written</source>
        <translation>无法写入锁文件</translation>
    </message>
    <message>
        <source>cannot write to %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::CompareDialog</name>
    <message>
        <source>Compare Methods</source>
        <translation>比较方法</translation>
    </message>
    <message>
        <source>Show %1 to %2 methods side by side on the current sequence, each with its own parameters: one heatmap panel per method and their curves on shared axes.</source>
        <translation>在当前序列上并排显示 %1 到 %2 种方法，各用自己的参数：每种方法一个热力图面板，曲线画在共同的坐标轴上。</translation>
    </message>
    <message>
        <source>Methods</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>One colour scale &amp;per panel (off: one scale shared by all methods)</source>
        <translation>每个面板单独色标(&amp;P)（关闭：所有方法共用一个色标）</translation>
    </message>
    <message>
        <source>Methods chosen: %1.</source>
        <translation>已选方法：%1。</translation>
    </message>
    <message>
        <source>Choose %1 to %2 methods (%3 chosen).</source>
        <translation>请选择 %1 到 %2 种方法（已选 %3 种）。</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::CurveChartView</name>
    <message>
        <source>Hover, or Left / Right with the keyboard (Shift: larger steps, Home / End): the exact values at that distance</source>
        <translation>鼠标悬停，或使用键盘左 / 右方向键（Shift：更大步长，Home / End）：查看该距离处的精确值</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::CurveView</name>
    <message>
        <source>log x</source>
        <translation>对数 x</translation>
    </message>
    <message>
        <source>Logarithmic x axis</source>
        <translation>对数 x 轴</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ExplanationPanel</name>
    <message>
        <source>What am I looking at?</source>
        <translation>我在看什么？</translation>
    </message>
    <message>
        <source>Show or hide a short explanation of this view: its axes, its colours and what to look for</source>
        <translation>显示或隐藏本视图的简短说明：坐标轴、颜色含义以及值得注意之处</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::Explanations</name>
    <message>
        <source>Rows are positions (0 at the top), columns are the dimensions of each position&apos;s vector: row p is the vector added to the token at position p.</source>
        <translation>行是位置（0 在最上方），列是每个位置向量的各个维度：第 p 行就是加到位置 p 上 token 的向量。</translation>
    </message>
    <message>
        <source>Rows are queries i (position 0 at the top), columns are keys j (position 0 at the left): each cell is one number for the pair (i, j), and the diagonal is i = j.</source>
        <translation>行是查询 i（位置 0 在最上方），列是键 j（位置 0 在最左侧）：每个格子是 (i, j) 这一对的一个数，对角线上 i = j。</translation>
    </message>
    <message>
        <source>Each small panel is one head, with its own colour scale unless you share one.</source>
        <translation>每个小图是一个注意力头，除非选择共享色标，否则各用各的色标。</translation>
    </message>
    <message>
        <source>With the default colour map, dark purple is the smallest value and yellow the largest.</source>
        <translation>在默认色图下，深紫色是最小值，黄色是最大值。</translation>
    </message>
    <message>
        <source>The colour bar shows the scale&apos;s ends and the data&apos;s minimum and maximum. &quot;scale: whole matrix&quot; keeps a cell&apos;s colour while you zoom; Fit Colours to View rescales to the visible window.</source>
        <translation>色条标出色标的两端以及数据的最小值和最大值。“色标：整个矩阵”时，缩放过程中每个格子的颜色保持不变；“颜色适应视图”则按可见窗口重新定标。</translation>
    </message>
    <message>
        <source>Hatched grey cells have no value (a masked key, or a position without an embedding).</source>
        <translation>带斜线的灰色格子没有数值（被掩码的键，或没有嵌入的位置）。</translation>
    </message>
    <message>
        <source>Each cell is the attention logit of query i and key j for this method.</source>
        <translation>每个格子是该方法下查询 i 与键 j 的注意力 logit。</translation>
    </message>
    <message>
        <source>The x axis is the distance r between query and key, in positions (logarithmic unless you switch it off).</source>
        <translation>横轴是查询与键之间的距离 r，单位为位置（默认对数刻度，可以关闭）。</translation>
    </message>
    <message>
        <source>This view shows RoPE&apos;s rotations only: choose RoPE (or a RoPE preset) to see them.</source>
        <translation>此视图只显示 RoPE 的旋转：请选择 RoPE（或某个 RoPE 预设）来查看。</translation>
    </message>
    <message>
        <source>Each circle is one pair of dimensions: the query is turned by m·θ, the key by n·θ, and the arc is the angle (m − n)·θ, which is all the logit sees. Move m and n together and the arcs stay the same. The clock face shows every pair at once: the outer hands (fast pairs) spin quickly, the inner ones (slow pairs) hardly move.</source>
        <translation>每个圆是一个维度对：查询旋转 m·θ，键旋转 n·θ，圆弧是夹角 (m − n)·θ，logit 只看得到它。让 m 和 n 一起移动，圆弧保持不变。钟面同时显示所有维度对：外圈指针（快维度对）转得快，内圈指针（慢维度对）几乎不动。</translation>
    </message>
    <message>
        <source>No scaling: θ′ = θ, the ratio is 1 for every pair.</source>
        <translation>未缩放：θ′ = θ，每个维度对的比值都是 1。</translation>
    </message>
    <message>
        <source>Linear scaling (position interpolation) divides every frequency by the factor %1: the ratio is 1/%1 for every pair.</source>
        <translation>线性缩放（位置内插）把每个频率都除以因子 %1：每个维度对的比值都是 1/%1。</translation>
    </message>
    <message>
        <source>NTK-aware scaling raises the base: the fast pairs stay almost unchanged, the slowest pair is divided by the factor %1 (dynamic NTK only once the sequence is longer than the model&apos;s context).</source>
        <translation>NTK 感知缩放增大基数：快维度对几乎不变，最慢的维度对被除以因子 %1（动态 NTK 只有在序列长于模型上下文时才生效）。</translation>
    </message>
    <message>
        <source>Llama 3 keeps the pairs with wavelengths below %1 positions, divides those above %2 by the factor %3 and blends the pairs between smoothly.</source>
        <translation>Llama 3 保留波长小于 %1 个位置的维度对，把波长大于 %2 的维度对除以因子 %3，介于两者之间的平滑过渡。</translation>
    </message>
    <message>
        <source>LongRoPE gives every pair its own factor (short_factor, or long_factor once the sequence is longer than the trained context): the ratio is 1 over that factor.</source>
        <translation>LongRoPE 为每个维度对指定各自的因子（short_factor；序列长于训练长度后改用 long_factor）：比值是该因子的倒数。</translation>
    </message>
    <message>
        <source>The frequency spectrum is about RoPE only: choose RoPE (or a RoPE preset) to see it.</source>
        <translation>频谱只适用于 RoPE：请选择 RoPE（或某个 RoPE 预设）来查看。</translation>
    </message>
    <message>
        <source>Top: the wavelength 2π/θ of every pair, in positions, on a logarithmic axis: pair 0 turns once every 6.28 positions, the last pair once every %1 (dashed: before scaling). Pairs above the trained context line never completed a turn in training.</source>
        <translation>上图：每个维度对的波长 2π/θ，单位为位置，对数坐标：第 0 对每 6.28 个位置转一圈，最后一对每 %1 个位置转一圈（虚线：缩放前）。位于训练长度线之上的维度对在训练中从未转满一圈。</translation>
    </message>
    <message>
        <source>Bottom: the ratio θ′/θ of each pair after scaling (1 = unchanged).</source>
        <translation>下图：缩放后每个维度对的频率比 θ′/θ（1 = 不变）。</translation>
    </message>
    <message>
        <source>The sequence is your sentence: position p is the p-th word, and the same word always gets the same vectors.</source>
        <translation>序列就是你输入的句子：位置 p 是第 p 个词，同一个词总是得到同样的向量。</translation>
    </message>
    <message>
        <source>Random content: every position has its own vectors, so the picture is noisy; what stays when you change the seed is the positional part.</source>
        <translation>随机内容：每个位置有各自的向量，所以图像带噪声；更换种子后仍保持不变的部分就是位置编码的贡献。</translation>
    </message>
    <message>
        <source>Causal is on: keys after the query get weight 0 (the upper-right triangle).</source>
        <translation>已开启因果掩码：查询之后的键权重为 0（右上三角）。</translation>
    </message>
    <message>
        <source>YaRN keeps the pairs that turn more than beta_fast = %1 times within the trained context (ratio 1), interpolates those that turn fewer than beta_slow = %2 times (ratio 1/%3) and blends the pairs between along the ramp (dashed: 0 kept, 1 interpolated). It also scales the logits by its attention factor.</source>
        <translation>YaRN 保留在训练长度内转动超过 beta_fast = %1 圈的维度对（比值 1），对转动少于 beta_slow = %2 圈的维度对做内插（比值 1/%3），介于两者之间的沿斜坡混合（虚线：0 为保留，1 为内插）。它还用注意力因子缩放 logit。</translation>
    </message>
    <message>
        <source>When the values lie on both sides of 0 the colours are diverging: blue is negative, white is 0, red is positive, on a scale symmetric about 0; when they have one sign, dark purple is the smallest value and yellow the largest.</source>
        <translation>数值有正有负时使用发散色图：蓝色为负，白色为 0，红色为正，色标关于 0 对称；数值同号时，深紫色是最小值，黄色是最大值。</translation>
    </message>
    <message>
        <source>Queries and keys are your own, from %1: position p is row p of each file.</source>
        <translation>查询与键是您自己的，来自 %1：位置 p 是每个文件的第 p 行。</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ExplorerFigures</name>
    <message>
        <source>trained L = %1</source>
        <translation>训练长度 L = %1</translation>
    </message>
    <message>
        <source>target %1</source>
        <translation>目标长度 %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Per-pair scaling</source>
        <translation>逐维度对缩放</translation>
    </message>
    <message>
        <source>Wavelength vs context</source>
        <translation>波长与上下文</translation>
    </message>
    <message>
        <source>Angle coverage</source>
        <translation>角度覆盖</translation>
    </message>
    <message>
        <source>Dynamic NTK</source>
        <translation>动态 NTK</translation>
    </message>
    <message>
        <source>Temperature &amp; entropy</source>
        <translation>温度 &amp; 熵</translation>
    </message>
    <message>
        <source>Relative scores</source>
        <translation>相对分数</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>Every number comes from PosAtlas&apos; core, which follows Hugging Face transformers &lt;tt&gt;modeling_rope_utils.py&lt;/tt&gt; (&lt;tt&gt;_compute_*_parameters&lt;/tt&gt;) for the same configuration.</source>
        <translation>所有数值均来自 PosAtlas 核心，其实现与 Hugging Face transformers &lt;tt&gt;modeling_rope_utils.py&lt;/tt&gt;（&lt;tt&gt;_compute_*_parameters&lt;/tt&gt;）在相同配置下保持一致。</translation>
    </message>
    <message>
        <source>&lt;b&gt;θ′ᵢ/θᵢ per rotary pair.&lt;/b&gt; 1 means the pair is &lt;i&gt;kept&lt;/i&gt; (extrapolated as trained); 1/s means it is &lt;i&gt;interpolated&lt;/i&gt; (PI divides every pair by s); anything between is &lt;i&gt;blended&lt;/i&gt; (YaRN&apos;s and Llama 3&apos;s ramps, NTK&apos;s larger base). The shaded regimes belong to the variant chosen above the plot; the strips below show every variant&apos;s regimes. Boundaries are labelled &lt;i&gt;last/first pair&lt;/i&gt; with their original wavelengths. </source>
        <translation>&lt;b&gt;每个旋转维度对的 θ′ᵢ/θᵢ。&lt;/b&gt;1 表示该维度对&lt;i&gt;保持&lt;/i&gt;不变（按训练时的方式外推）；1/s 表示其被&lt;i&gt;内插&lt;/i&gt;（PI 将所有维度对都除以 s）；介于两者之间的为&lt;i&gt;混合&lt;/i&gt;（YaRN 和 Llama 3 的斜坡函数、NTK 的更大基数）。阴影区间属于图上方所选的变体；下方的条带显示所有变体的区间。边界标注为&lt;i&gt;最后/第一个维度对&lt;/i&gt;及其原始波长。 </translation>
    </message>
    <message>
        <source>&lt;b&gt;Wavelength λᵢ = 2π/θ′ᵢ against the context.&lt;/b&gt; Pairs whose wavelength is below the trained context L have turned many times in training; pairs above it never completed a turn. YaRN states its thresholds on r = L/λ (right axis): pairs with r &amp;gt; β_fast are kept, pairs with r &amp;lt; β_slow are interpolated. Llama 3 keeps λ &amp;lt; L/high_freq_factor and interpolates λ &amp;gt; L/low_freq_factor. &lt;b&gt;HF vs llama.cpp YaRN:&lt;/b&gt; llama.cpp always floors/ceils the correction range (HF only with &lt;tt&gt;truncate&lt;/tt&gt;), divides the ramp by max(0.001, high − low) instead of adding 0.001 only when low = high, ignores mscale/mscale_all_dim in the kernel (DeepSeek&apos;s mscale lives in its graph) and computes in float32; for ordinary configs the frequencies agree and the &apos;YaRN (llama.cpp)&apos; curve lies on top of YaRN. </source>
        <translation>&lt;b&gt;波长 λᵢ = 2π/θ′ᵢ 与上下文的对比。&lt;/b&gt;波长小于训练上下文 L 的维度对在训练中已转过许多圈；波长大于 L 的维度对从未转满一圈。YaRN 的阈值以 r = L/λ 表述（右侧坐标轴）：r &amp;gt; β_fast 的维度对保持不变，r &amp;lt; β_slow 的维度对被内插。Llama 3 保持 λ &amp;lt; L/high_freq_factor 的维度对，内插 λ &amp;gt; L/low_freq_factor 的维度对。&lt;b&gt;HF 与 llama.cpp 的 YaRN 对比：&lt;/b&gt;llama.cpp 总是对校正范围做向下/向上取整（HF 仅在 &lt;tt&gt;truncate&lt;/tt&gt; 时这样做），将斜坡函数除以 max(0.001, high − low)，而不是仅在 low = high 时加 0.001；在内核中忽略 mscale/mscale_all_dim（DeepSeek 的 mscale 在其计算图中处理），并以 float32 计算；对常规配置两者频率一致，&apos;YaRN (llama.cpp)&apos; 曲线与 YaRN 重合。 </translation>
    </message>
    <message>
        <source>&lt;b&gt;Rotation angles seen in training vs used at the target length.&lt;/b&gt; Grey: the range [0, L·θᵢ] pair i covered in training. Lines: the largest angle (T − 1)·θ′ᵢ at the target length T. A pair whose training angle stayed below 2π has only seen part of the circle; if the target reaches beyond L·θᵢ it meets &lt;b&gt;never-seen rotations&lt;/b&gt; (red points and strip cells). Interpolating methods pull those pairs back inside the trained range. Relative to pre-training at L: long-context fine-tuning (e.g. Llama 3.1&apos;s at 128k) is not modelled. </source>
        <translation>&lt;b&gt;训练中见过的旋转角度与目标长度下使用的旋转角度对比。&lt;/b&gt;灰色：维度对 i 在训练中覆盖的范围 [0, L·θᵢ]。线条：目标长度 T 下的最大角度 (T − 1)·θ′ᵢ。训练角度始终小于 2π 的维度对只见过圆周的一部分；若目标角度超过 L·θᵢ，就会遇到&lt;b&gt;从未见过的旋转&lt;/b&gt;（红点和条带单元格）。内插类方法会把这些维度对拉回训练范围内。以上均相对于长度 L 的预训练而言：长上下文微调（例如 Llama 3.1 在 128k 上的微调）未纳入建模。 </translation>
    </message>
    <message>
        <source>Per-pair scaling θ′/θ · %1 · L %2 → %3</source>
        <translation>逐维度对缩放 θ′/θ · %1 · L %2 → %3</translation>
    </message>
    <message>
        <source>pair index i</source>
        <translation>维度对索引 i</translation>
    </message>
    <message>
        <source>θ′ᵢ / θᵢ</source>
        <translation>θ′ᵢ / θᵢ</translation>
    </message>
    <message>
        <source>kept: θ′/θ = 1</source>
        <translation>保持：θ′/θ = 1</translation>
    </message>
    <message>
        <source>interpolated: 1/s = 1/%1</source>
        <translation>内插：1/s = 1/%1</translation>
    </message>
    <message>
        <source>pair %1</source>
        <translation>维度对 %1</translation>
    </message>
    <message>
        <source>pairs %1–%2</source>
        <translation>维度对 %1–%2</translation>
    </message>
    <message>
        <source>%1 · %2
λ %3–%4</source>
        <translation>%1 · %2
λ %3–%4</translation>
    </message>
    <message>
        <source>Shaded regimes and boundary labels: %1 · strips: regimes of every variant</source>
        <translation>阴影区间和边界标注：%1 · 条带：所有变体的区间</translation>
    </message>
    <message>
        <source>Wavelength λ = 2π/θ′ against context · %1</source>
        <translation>波长 λ = 2π/θ′ 与上下文对比 · %1</translation>
    </message>
    <message>
        <source>wavelength (tokens)</source>
        <translation>波长 (token)</translation>
    </message>
    <message>
        <source>YaRN r = L / λ (L = %1)</source>
        <translation>YaRN r = L / λ (L = %1)</translation>
    </message>
    <message>
        <source>unscaled</source>
        <translation>未缩放</translation>
    </message>
    <message>
        <source>Llama 3 high-freq λ = L/%1 = %2</source>
        <translation>Llama 3 高频 λ = L/%1 = %2</translation>
    </message>
    <message>
        <source>Llama 3 low-freq λ = L/%1 = %2</source>
        <translation>Llama 3 低频 λ = L/%1 = %2</translation>
    </message>
    <message>
        <source>YaRN r = β_fast = %1 (λ = %2): pairs below are kept</source>
        <translation>YaRN r = β_fast = %1 (λ = %2)：下方的维度对保持不变</translation>
    </message>
    <message>
        <source>YaRN r = β_slow = %1 (λ = %2): pairs above are interpolated</source>
        <translation>YaRN r = β_slow = %1 (λ = %2)：上方的维度对被内插</translation>
    </message>
    <message>
        <source>YaRN thresholds of the first YaRN variant</source>
        <translation>第一个 YaRN 变体的 YaRN 阈值</translation>
    </message>
    <message>
        <source>YaRN thresholds at the paper&apos;s defaults β_fast 32, β_slow 1</source>
        <translation>论文默认值 β_fast 32、β_slow 1 下的 YaRN 阈值</translation>
    </message>
    <message>
        <source>Angle coverage: trained [0, L·θᵢ] vs target (T−1)·θ′ᵢ · L %1, T %2</source>
        <translation>角度覆盖：训练范围 [0, L·θᵢ] 与目标 (T−1)·θ′ᵢ 对比 · L %1，T %2</translation>
    </message>
    <message>
        <source>rotation angle (rad)</source>
        <translation>旋转角度 (rad)</translation>
    </message>
    <message>
        <source>trained range [0, L·θᵢ]</source>
        <translation>训练范围 [0, L·θᵢ]</translation>
    </message>
    <message>
        <source>unscaled at target</source>
        <translation>目标长度下未缩放</translation>
    </message>
    <message>
        <source>never-seen rotation</source>
        <translation>从未见过的旋转</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n never-seen</source>
        <translation>
            <numerusform>%1: %n 个从未见过</numerusform>
        </translation>
    </message>
    <message>
        <source>one full turn 2π</source>
        <translation>整圈 2π</translation>
    </message>
    <message>
        <source>Frequencies at the current length N = %1 (trained L = %2)</source>
        <translation>当前长度 N = %1 下的频率（训练长度 L = %2）</translation>
    </message>
    <message>
        <source>θ′ᵢ / θᵢ at N</source>
        <translation>N 处的 θ′ᵢ / θᵢ</translation>
    </message>
    <message>
        <source>Attention temperature against the scaling factor s</source>
        <translation>注意力温度随缩放因子 s 的变化</translation>
    </message>
    <message>
        <source>scaling factor s</source>
        <translation>缩放因子 s</translation>
    </message>
    <message>
        <source>Attention entropy against context (random q, k)</source>
        <translation>注意力熵随上下文的变化（随机 q、k）</translation>
    </message>
    <message>
        <source>context length N</source>
        <translation>上下文长度 N</translation>
    </message>
    <message>
        <source>entropy (nats)</source>
        <translation>熵 (nats)</translation>
    </message>
    <message>
        <source>ln N (uniform attention)</source>
        <translation>ln N（均匀注意力）</translation>
    </message>
    <message>
        <source>RoFormer long-term decay bound against distance</source>
        <translation>RoFormer 远程衰减上界随距离的变化</translation>
    </message>
    <message>
        <source>relative distance r (tokens)</source>
        <translation>相对距离 r (token)</translation>
    </message>
    <message>
        <source>(1/(d/2)) Σ |S_j|</source>
        <translation>(1/(d/2)) Σ |S_j|</translation>
    </message>
    <message>
        <source>Positional score against distance (all-ones q, k; head_dim %1)</source>
        <translation>位置分数随距离的变化（全 1 q、k；head_dim %1）</translation>
    </message>
    <message>
        <source>score / √d</source>
        <translation>分数 / √d</translation>
    </message>
    <message>
        <source>&lt;b&gt;Dynamic NTK&lt;/b&gt; (HF &lt;tt&gt;_compute_dynamic_ntk_parameters&lt;/tt&gt;) recomputes the base for the current sequence length N: base′ = base · (s·N/M − (s − 1))^(d/(d−2)), with M = max_position_embeddings (HF uses M, not the original length): the model&apos;s own value, as &lt;tt&gt;posatlas compute rope-frequencies --rope-type dynamic&lt;/tt&gt; reads it (core &lt;tt&gt;dynamic_ntk_params&lt;/tt&gt;). Up to M it equals unscaled RoPE, so a model whose M is already the extended length (DeepSeek-V3: 163840) is unchanged up to M; set a Dynamic variant&apos;s M to the trained length to extend from there. Drag the slider to watch the base and the frequencies move; LongRoPE switches from its short to its long factors once N exceeds the original length. Other methods do not depend on N. </source>
        <translation>&lt;b&gt;动态 NTK&lt;/b&gt;（HF &lt;tt&gt;_compute_dynamic_ntk_parameters&lt;/tt&gt;）根据当前序列长度 N 重新计算基数：base′ = base · (s·N/M − (s − 1))^(d/(d−2))，其中 M = max_position_embeddings（HF 使用 M，而不是原始长度），取模型配置自身的值，与 &lt;tt&gt;posatlas compute rope-frequencies --rope-type dynamic&lt;/tt&gt; 读取的相同（核心 &lt;tt&gt;dynamic_ntk_params&lt;/tt&gt;）。在 M 以内它与未缩放的 RoPE 相同，所以 M 已是扩展后长度的模型（DeepSeek-V3：163840）在 M 以内不变；若要从训练长度开始扩展，请把动态 NTK 变体的 M 设为训练长度。拖动滑块可观察基数和频率的变化；当 N 超过原始长度时，LongRoPE 从短因子切换为长因子。其他方法与 N 无关。 </translation>
    </message>
    <message>
        <source>&lt;b&gt;Effect on relative scores.&lt;/b&gt; Top: RoFormer&apos;s long-term-decay bound (Su et al. 2021, §3.4.3) of each variant&apos;s frequencies. Bottom: the positional score for all-ones queries and keys, c (2a² Σ cos(r θ′ᵢ) + pass-through)/√d, including the temperature a and DeepSeek&apos;s softmax multiplier c. Stretching frequencies moves the decay to longer distances. </source>
        <translation>&lt;b&gt;对相对分数的影响。&lt;/b&gt;上图：各变体频率下的 RoFormer 远程衰减上界（Su et al. 2021，§3.4.3）。下图：全 1 查询和键的位置分数 c (2a² Σ cos(r θ′ᵢ) + 透传项)/√d，包含温度 a 和 DeepSeek 的 softmax 乘数 c。拉伸频率会把衰减推向更远的距离。 </translation>
    </message>
    <message>
        <source>%1: base %2 → %3 (M = %4)</source>
        <translation>%1：基数 %2 → %3（M = %4）</translation>
    </message>
    <message>
        <source>multiplier of the logits q·k/√d</source>
        <translation>注意力分数 q·k/√d 的乘数</translation>
    </message>
    <message>
        <source>YaRN 1/t = (0.1 ln s + 1)²</source>
        <translation>YaRN 1/t = (0.1 ln s + 1)²</translation>
    </message>
    <message>
        <source>LongRoPE 1 + ln s / ln %1</source>
        <translation>LongRoPE 1 + ln s / ln %1</translation>
    </message>
    <message>
        <source>DeepSeek (mscale %1, mscale_all_dim %2): ratio² × softmax get_mscale(s, %2)²</source>
        <translation>DeepSeek（mscale %1，mscale_all_dim %2）：比值² × softmax get_mscale(s, %2)²</translation>
    </message>
    <message>
        <source>DeepSeek ratio² (mscale %1 / mscale_all_dim %2)</source>
        <translation>DeepSeek 比值²（mscale %1 / mscale_all_dim %2）</translation>
    </message>
    <message>
        <source>%1: s %2 → logits × %3</source>
        <translation>%1：s %2 → 注意力分数 × %3</translation>
    </message>
    <message>
        <source>Points: each variant&apos;s factor s and what its logits are multiplied by in all</source>
        <translation>点：每个变体的因子 s，以及它的注意力分数总共乘以多少</translation>
    </message>
    <message>
        <source>%1 · logits × %2</source>
        <translation>%1 · 注意力分数 × %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Attention temperature.&lt;/b&gt; YaRN multiplies q and k by √(1/t) = 0.1 ln s + 1 (logits by 1/t); DeepSeek uses the ratio get_mscale(s, mscale)/get_mscale(s, mscale_all_dim) on cos and sin, and its attention multiplies the softmax scale by get_mscale(s, mscale_all_dim)², so its logits get get_mscale(s, mscale)² in all (1.874 for DeepSeek-V3 at s = 40); LongRoPE uses √(1 + ln s / ln L). llama.cpp applies attn_factor·(1 + 0.1 ln s) in its kernel. The figure plots what the logits are multiplied by (the square of the factor on q and k). &lt;b&gt;Entropy&lt;/b&gt; (core &lt;tt&gt;attention_entropy&lt;/tt&gt;): the entropy, in nats, of the last query&apos;s softmax attention over all N keys, exact at each plotted length (every key, no sampling), averaged over seeded trials; solid with the variant&apos;s temperature, dashed without. &lt;i&gt;Repeated token&lt;/i&gt; (the default): q = k = v at every position, so each logit is (Σᵢ ρᵢ cos(r θ′ᵢ) + pass-through)/√d with ρᵢ the energy of pair i in v, a function of the distance r alone. The softmax then sees nothing but positions, and the curves show how each frequency set spreads attention: PI stretches every pair and spreads attention already over short contexts; NTK-aware and Llama 3 keep the fast pairs, stay close to unscaled RoPE there and part ways at long range. It is the extreme case of queries and keys sharing a component. &lt;i&gt;Random q, k&lt;/i&gt;: R(j)k is again random, so the curve does not depend on the frequencies at all, only on N, d and the logit multiplier; methods then differ only through their temperature. Uniform attention gives ln N. </source>
        <translation>&lt;b&gt;注意力温度。&lt;/b&gt;YaRN 将 q 和 k 乘以 √(1/t) = 0.1 ln s + 1（注意力分数乘以 1/t）；DeepSeek 在 cos 和 sin 上使用比值 get_mscale(s, mscale)/get_mscale(s, mscale_all_dim)，它的注意力还把 softmax 缩放乘以 get_mscale(s, mscale_all_dim)²，所以注意力分数总共乘以 get_mscale(s, mscale)²（DeepSeek-V3 在 s = 40 时为 1.874）；LongRoPE 使用 √(1 + ln s / ln L)。llama.cpp 在其内核中应用 attn_factor·(1 + 0.1 ln s)。图中画的是注意力分数的乘数（即 q、k 上因子的平方）。&lt;b&gt;注意力熵&lt;/b&gt;（核心 &lt;tt&gt;attention_entropy&lt;/tt&gt;）：最后一个查询在全部 N 个键上的 softmax 注意力权重的熵（单位 nats），在图中每个长度上都精确计算（用到每一个键，不做抽样），再对若干次带种子的试验取平均；实线含该变体的温度，虚线不含。&lt;i&gt;重复词元&lt;/i&gt;（默认）：每个位置上都是 q = k = v，于是每个注意力分数都等于 (Σᵢ ρᵢ cos(r θ′ᵢ) + 透传项)/√d，其中 ρᵢ 是 v 在维度对 i 上的能量，它只取决于距离 r。softmax 看到的就只有位置，曲线显示的是每组频率把注意力摊开到多远：PI 拉伸每一个维度对，在较短的上下文里就已把注意力摊开；NTK-aware（NTK 感知）缩放和 Llama 3 保留转得快的维度对，在短距离上接近未缩放的 RoPE，到长距离才彼此分开。这是查询和键共享某个分量的极端情形。&lt;i&gt;随机 q、k&lt;/i&gt;：R(j)k 仍然是随机的，所以曲线完全不依赖频率，只取决于 N、d 和注意力分数的乘数；这时各方法的差别只来自温度。均匀注意力的熵为 ln N。 </translation>
    </message>
    <message>
        <source>Attention entropy against context (repeated token, q = k)</source>
        <translation>注意力熵随上下文的变化（重复词元，q = k）</translation>
    </message>
    <message>
        <source>dashed: without temperature</source>
        <translation>虚线：不含温度</translation>
    </message>
    <message>
        <source>Last query, all N keys, exact; mean of %1 random tokens v, q = k = v.</source>
        <translation>最后一个查询、全部 N 个键，精确计算；对 %1 个随机词元 v 取平均，q = k = v。</translation>
    </message>
    <message>
        <source>Last query, all N keys, exact; mean of %1 draws. Every frequency set: the same distribution.</source>
        <translation>最后一个查询、全部 N 个键，精确计算；对 %1 次抽取取平均。每组频率的分布都相同。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Per-pair numbers&lt;/b&gt; for every variant at the target length: original θ and wavelength, scaled θ′, the ratio θ′/θ and the regime. Export CSV writes every variant&apos;s whole table (with the scaled wavelengths and the largest angles) one after another, as posatlas compute rope-pairs writes it. </source>
        <translation>&lt;b&gt;逐维度对数值&lt;/b&gt;：目标长度下每个变体的原始 θ 和波长、缩放后的 θ′、比值 θ′/θ 以及所属区间。导出 CSV 依次写出每个变体的完整表格（还包括缩放后的波长和最大角度），与 posatlas compute rope-pairs 的输出格式相同。 </translation>
    </message>
    <message>
        <source>&lt;b&gt;Length-dependent scale&lt;/b&gt; (the combo above the plots): Qwen&apos;s log-n (&lt;tt&gt;use_logn_attn&lt;/tt&gt;) multiplies the query at position p by log_L(p + 1) once p + 1 &gt; L, which at p + 1 = sL equals LongRoPE&apos;s 1 + ln s / ln L; Llama 4 multiplies the query on its NoPE layers by ln(⌊(p + 1)/floor_scale⌋ + 1)·attn_scale + 1. Both grow with the position, not with a scaling factor. In the entropy plot the thin curves with dots apply them on top of each temperature (Llama 4&apos;s on a NoPE layer). </source>
        <translation>&lt;b&gt;随长度变化的缩放&lt;/b&gt;（图上方的下拉框）：Qwen 的 log-n（&lt;tt&gt;use_logn_attn&lt;/tt&gt;）在 p + 1 &gt; L 之后把位置 p 的查询乘以 log_L(p + 1)，在 p + 1 = sL 处正好等于 LongRoPE 的 1 + ln s / ln L；Llama 4 在它的 NoPE 层上把查询乘以 ln(⌊(p + 1)/floor_scale⌋ + 1)·attn_scale + 1。两者都随位置增大，而不是随缩放因子。熵图里带圆点的细线就是在各自温度之上再乘这个缩放（Llama 4 的画在一层 NoPE 上）。</translation>
    </message>
    <message>
        <source>Qwen log-n: query × log_%1(p + 1) at p + 1 = s·%1</source>
        <translation>Qwen log-n：查询 × log_%1(p + 1)，p + 1 = s·%1</translation>
    </message>
    <message>
        <source>Llama 4 NoPE layers: query × (ln(⌊(p + 1)/%1⌋ + 1)·%2 + 1) at p + 1 = s·%3</source>
        <translation>Llama 4 的 NoPE 层：查询 × (ln(⌊(p + 1)/%1⌋ + 1)·%2 + 1)，p + 1 = s·%3</translation>
    </message>
    <message>
        <source>%1 + Qwen log-n</source>
        <translation>%1 + Qwen log-n</translation>
    </message>
    <message>
        <source>%1 × Llama 4 temperature</source>
        <translation>%1 × Llama 4 温度</translation>
    </message>
    <message>
        <source>NoPE layer with a repeated token: all its logits are equal, so its entropy is ln N with or without the temperature; choose random q, k to see it act.</source>
        <translation>NoPE 层遇到重复的词元时，所有注意力分数都相等，不论有没有温度，熵都是 ln N；要看温度的作用，请选“随机 q、k”。</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ExplorerJobs</name>
    <message>
        <source>kept</source>
        <translation>保持</translation>
    </message>
    <message>
        <source>interpolated</source>
        <translation>内插</translation>
    </message>
    <message>
        <source>blended</source>
        <translation>混合</translation>
    </message>
    <message>
        <source>%1/%2: λ %3 | %4 (%5 → %6)</source>
        <translation>%1/%2: λ %3 | %4 (%5 → %6)</translation>
    </message>
    <message>
        <source>Dynamic NTK (probe, factor %1)</source>
        <translation>动态 NTK（探测，因子 %1）</translation>
    </message>
    <message>
        <source>NoPE layer</source>
        <translation>NoPE 层</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ExplorerModel</name>
    <message>
        <source>Unscaled</source>
        <translation>未缩放</translation>
    </message>
    <message>
        <source>PI (linear)</source>
        <translation>PI（线性）</translation>
    </message>
    <message>
        <source>NTK-aware</source>
        <translation>NTK-aware</translation>
    </message>
    <message>
        <source>Dynamic NTK</source>
        <translation>动态 NTK</translation>
    </message>
    <message>
        <source>YaRN</source>
        <translation>YaRN</translation>
    </message>
    <message>
        <source>YaRN (llama.cpp)</source>
        <translation>YaRN (llama.cpp)</translation>
    </message>
    <message>
        <source>Llama 3</source>
        <translation>Llama 3</translation>
    </message>
    <message>
        <source>LongRoPE</source>
        <translation>LongRoPE</translation>
    </message>
    <message>
        <source>%1 (model)</source>
        <translation>%1（模型）</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ExplorerPanel</name>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Preset…</source>
        <translation>预设…</translation>
    </message>
    <message>
        <source>RoPE models, grouped by family</source>
        <translation>RoPE 模型，按系列分组</translation>
    </message>
    <message>
        <source>Open config.json…</source>
        <translation>打开 config.json…</translation>
    </message>
    <message>
        <source>Open config.json</source>
        <translation>打开 config.json</translation>
    </message>
    <message>
        <source>Import report</source>
        <translation>导入报告</translation>
    </message>
    <message>
        <source>Target context T</source>
        <translation>目标上下文 T</translation>
    </message>
    <message>
        <source>Methods (2–4)</source>
        <translation>方法（2–4 个）</translation>
    </message>
    <message>
        <source>Add method</source>
        <translation>添加方法</translation>
    </message>
    <message>
        <source>%1 does not use RoPE</source>
        <translation>%1 未使用 RoPE</translation>
    </message>
    <message>
        <source>Preset %1: %2</source>
        <translation>预设 %1：%2</translation>
    </message>
    <message>
        <source>the model&apos;s positions are %1, not RoPE</source>
        <translation>该模型的位置编码是 %1，而不是 RoPE</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;head_dim %2 · rotary %3 · base %4 · %5 · trained L = %6</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;head_dim %2 · rotary %3 · base %4 · %5 · 训练长度 L = %6</translation>
    </message>
    <message>
        <source>&lt;b&gt;Read:&lt;/b&gt; %1&lt;br&gt;</source>
        <translation>&lt;b&gt;已读取：&lt;/b&gt;%1&lt;br&gt;</translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:#d62728&apos;&gt;Not modelled:&lt;/b&gt; %1&lt;br&gt;</source>
        <translation>&lt;b style=&apos;color:#d62728&apos;&gt;未建模：&lt;/b&gt;%1&lt;br&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Unknown keys:&lt;/b&gt; %1&lt;br&gt;</source>
        <translation>&lt;b&gt;未知键：&lt;/b&gt;%1&lt;br&gt;</translation>
    </message>
    <message>
        <source>• %1&lt;br&gt;</source>
        <translation>• %1&lt;br&gt;</translation>
    </message>
    <message>
        <source>Seeded from the main window&apos;s RoPE scenario (no config keys read).</source>
        <translation>由主窗口的 RoPE 场景初始化（未读取任何配置键）。</translation>
    </message>
    <message>
        <source>The context length every view aims at (tokens)</source>
        <translation>所有视图所针对的上下文长度 (token)</translation>
    </message>
    <message>
        <source>Model config (*.json *.gguf);;All files (*)</source>
        <translation>模型配置 (*.json *.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <source> · logits × %1</source>
        <translation> · 注意力分数 × %1</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;span style=&apos;color:#d62728&apos;&gt;Trained length assumed: the config does not say whether max_position_embeddings %1 is the trained or the extended context. Set the original context in the main window&apos;s panel.&lt;/span&gt;</source>
        <translation>&lt;br&gt;&lt;span style=&apos;color:#d62728&apos;&gt;训练长度是假定的：配置没有说明 max_position_embeddings %1 是训练时的上下文还是扩展后的上下文。请在主窗口的参数面板中设置“原始上下文”。&lt;/span&gt;</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ExplorerTableModel</name>
    <message>
        <source>pair</source>
        <translation>维度对</translation>
    </message>
    <message>
        <source>θ (rad/token)</source>
        <translation>θ (rad/token)</translation>
    </message>
    <message>
        <source>λ (tokens)</source>
        <translation>λ (token)</translation>
    </message>
    <message>
        <source>θ′</source>
        <translation>θ′</translation>
    </message>
    <message>
        <source>θ′/θ</source>
        <translation>θ′/θ</translation>
    </message>
    <message>
        <source>regime</source>
        <translation>区间</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ExplorerWindow</name>
    <message>
        <source>Context-extension explorer</source>
        <translation>上下文扩展探索器</translation>
    </message>
    <message>
        <source>Model and methods</source>
        <translation>模型与方法</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Export &amp;Figure…</source>
        <translation>导出图表(&amp;F)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Export figure</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG (*.png);;SVG (*.svg);;PDF (*.pdf)</source>
        <translation>PNG (*.png);;SVG (*.svg);;PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Export Table as &amp;CSV…</source>
        <translation>将表格导出为 CSV(&amp;C)…</translation>
    </message>
    <message>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>entropy %p%</source>
        <translation>熵 %p%</translation>
    </message>
    <message>
        <source>Whose regimes are shaded and labelled</source>
        <translation>为哪个变体的区间加阴影并标注</translation>
    </message>
    <message>
        <source>Regimes of:</source>
        <translation>区间标注：</translation>
    </message>
    <message>
        <source>Current sequence length N:</source>
        <translation>当前序列长度 N：</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Cannot explore this configuration: %1</source>
        <translation>无法探索此配置：%1</translation>
    </message>
    <message>
        <source>The current sequence length N that dynamic NTK (and LongRoPE&apos;s short/long switch) depend on</source>
        <translation>动态 NTK（以及 LongRoPE 的短/长因子切换）所依赖的当前序列长度 N</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;effective base&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;有效基数&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>PosAtlas context-extension explorer · %1</source>
        <translation>PosAtlas 上下文扩展探索器 · %1</translation>
    </message>
    <message>
        <source>Repeated token (q = k): positions only</source>
        <translation>重复词元（q = k）：只看位置</translation>
    </message>
    <message>
        <source>Random q, k: frequencies do not matter</source>
        <translation>随机 q、k：与频率无关</translation>
    </message>
    <message>
        <source>What the queries and keys of the entropy plot are</source>
        <translation>注意力熵图中的查询和键取什么内容</translation>
    </message>
    <message>
        <source>Entropy content:</source>
        <translation>注意力熵的内容：</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Qwen log-n (use_logn_attn)</source>
        <translation>Qwen 的对数缩放 log-n（use_logn_attn）</translation>
    </message>
    <message>
        <source>Llama 4 temperature (NoPE layers)</source>
        <translation>Llama 4 温度（NoPE 层）</translation>
    </message>
    <message>
        <source>A scale of each query that grows with its position past the trained length, drawn beside the RoPE scalings&apos; temperatures</source>
        <translation>超过训练长度之后随位置增大的查询缩放，与各种 RoPE 缩放的温度画在一起对比</translation>
    </message>
    <message>
        <source>Length-dependent scale:</source>
        <translation>随长度变化的缩放：</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ExportDialog</name>
    <message>
        <source>Heatmap</source>
        <translation>热力图</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>曲线</translation>
    </message>
    <message>
        <source>Rotation</source>
        <translation>旋转</translation>
    </message>
    <message>
        <source>Spectrum</source>
        <translation>频谱</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>Screen, 1200 × 800</source>
        <translation>屏幕，1200 × 800</translation>
    </message>
    <message>
        <source>Full HD, 1920 × 1080</source>
        <translation>全高清，1920 × 1080</translation>
    </message>
    <message>
        <source>Slide 16:9, 1280 × 720, large text</source>
        <translation>幻灯片 16:9，1280 × 720，大字号</translation>
    </message>
    <message>
        <source>Slide 4:3, 1024 × 768, large text</source>
        <translation>幻灯片 4:3，1024 × 768，大字号</translation>
    </message>
    <message>
        <source>Paper column, 3.5 × 2.6 in</source>
        <translation>论文单栏，3.5 × 2.6 英寸</translation>
    </message>
    <message>
        <source>Paper full width, 7 × 3.5 in</source>
        <translation>论文通栏，7 × 3.5 英寸</translation>
    </message>
    <message>
        <source>Export Figure</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>With several views, one file per view: the view&apos;s name is appended to the file name</source>
        <translation>选择多个视图时，每个视图一个文件：视图名称会附加到文件名后</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>PNG image (raster)</source>
        <translation>PNG 图像（位图）</translation>
    </message>
    <message>
        <source>SVG (vector)</source>
        <translation>SVG（矢量）</translation>
    </message>
    <message>
        <source>PDF (vector)</source>
        <translation>PDF（矢量）</translation>
    </message>
    <message>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <source>CSS pixels (1/96 inch): the figure&apos;s layout size. PNG pixels = this × dpi / 96</source>
        <translation>CSS 像素（1/96 英寸）：图表的布局尺寸。PNG 像素 = 该值 × dpi / 96</translation>
    </message>
    <message>
        <source> dpi</source>
        <translation> dpi</translation>
    </message>
    <message>
        <source>PNG only. 96 dpi = 1x, 192 = 2x (sharp on high-density screens), 300+ for print</source>
        <translation>仅限 PNG。96 dpi = 1x，192 = 2x（在高分辨率屏幕上清晰），打印用 300 以上</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Larger text for projectors and slides, smaller for paper columns</source>
        <translation>投影仪和幻灯片用较大字号，论文单栏用较小字号</translation>
    </message>
    <message>
        <source>Ca&amp;ption:</source>
        <translation>图注(&amp;P)：</translation>
    </message>
    <message>
        <source>Views:</source>
        <translation>视图：</translation>
    </message>
    <message>
        <source>&amp;File:</source>
        <translation>文件(&amp;F)：</translation>
    </message>
    <message>
        <source>F&amp;ormat:</source>
        <translation>格式(&amp;O)：</translation>
    </message>
    <message>
        <source>&amp;Size:</source>
        <translation>尺寸(&amp;S)：</translation>
    </message>
    <message>
        <source>PNG &amp;resolution:</source>
        <translation>PNG 分辨率(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>主题(&amp;T)：</translation>
    </message>
    <message>
        <source>Font s&amp;cale:</source>
        <translation>字号缩放(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>SVG (*.svg)</source>
        <translation>SVG (*.svg)</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Export figure</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG of %1 × %2 pixels (%3x).</source>
        <translation>PNG，%1 × %2 像素 (%3x)。</translation>
    </message>
    <message>
        <source>Vector %1, %2 × %3 in (%4 × %5 cm).</source>
        <translation>矢量 %1，%2 × %3 英寸 (%4 × %5 cm)。</translation>
    </message>
    <message>
        <source>One file per view: %1.</source>
        <translation>每个视图一个文件：%1。</translation>
    </message>
    <message>
        <source>Choose at least one view to export.</source>
        <translation>请至少选择一个要导出的视图。</translation>
    </message>
    <message>
        <source>Choose a file name.</source>
        <translation>请选择文件名。</translation>
    </message>
    <message>
        <source>Replace the existing file(s)?
%1</source>
        <translation>是否替换已存在的文件？
%1</translation>
    </message>
    <message>
        <source>CSV (the view&apos;s numbers)</source>
        <translation>CSV（视图中的数值）</translation>
    </message>
    <message>
        <source>JSON (the view&apos;s numbers)</source>
        <translation>JSON（视图中的数值）</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>The numbers the view shows, as %1.</source>
        <translation>视图所显示的数值，格式为 %1。</translation>
    </message>
    <message>
        <source>Figure:</source>
        <translation>图：</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::FigureExport</name>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>the figure size must be between 16 and 20000 pixels per side (got %1 x %2)</source>
        <translation>图的尺寸每边必须在 16 到 20000 像素之间（实际为 %1 × %2）</translation>
    </message>
    <message>
        <source>the dpi must be between 24 and 1200 (got %1)</source>
        <translation>dpi 必须在 24 到 1200 之间（实际为 %1）</translation>
    </message>
    <message>
        <source>at this size the dpi must be at most %1</source>
        <translation>在此尺寸下 dpi 最多为 %1</translation>
    </message>
    <message>
        <source>at 96 dpi a figure may have at most %1 pixels, e.g. %2 x %2</source>
        <translation>在 96 dpi 下一幅图最多 %1 像素，例如 %2 × %2</translation>
    </message>
    <message>
        <source>a %1 x %2 figure at %3 dpi is a %4 x %5 pixel image (%6 MiB with its encoded file), beyond the %7 MiB memory budget; %8</source>
        <translation>%1 × %2 的图在 %3 dpi 下是 %4 × %5 像素的图像（连同编码后的文件共 %6 MiB），超出 %7 MiB 的内存预算；%8</translation>
    </message>
    <message>
        <source>not enough memory for a %1 x %2 pixel image</source>
        <translation>内存不足，无法生成 %1 × %2 像素的图像</translation>
    </message>
    <message>
        <source>%1: a figure can be written as png, svg or pdf (by the file extension)</source>
        <translation>%1：图只能写为 png、svg 或 pdf（按文件扩展名）</translation>
    </message>
    <message>
        <source>cannot write %1: the PNG encoder failed (%2)</source>
        <translation>无法写入 %1：PNG 编码失败（%2）</translation>
    </message>
    <message>
        <source>cannot write %1: the SVG generator did not start</source>
        <translation>无法写入 %1：SVG 生成器未能启动</translation>
    </message>
    <message>
        <source>cannot write %1: the PDF writer did not start</source>
        <translation>无法写入 %1：PDF 写入器未能启动</translation>
    </message>
    <message>
        <source>%1: numbers can be written as csv or json (by the file extension)</source>
        <translation>%1：数值只能写为 csv 或 json（按文件扩展名）</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::Gallery</name>
    <message>
        <source>pair index i</source>
        <translation>维度对索引 i</translation>
    </message>
    <message>
        <source>θ′ᵢ / θᵢ (scaled / original frequency)</source>
        <translation>θ′ᵢ / θᵢ（缩放后 / 原始频率）</translation>
    </message>
    <message>
        <source>PI, NTK-aware and YaRN on Llama-2-7B, factor %1 (Chen et al. 2023; bloc97 2023; Peng et al. 2023): θ′/θ per pair</source>
        <translation>Llama-2-7B 上的 PI、NTK-aware 和 YaRN，factor %1 (Chen et al. 2023; bloc97 2023; Peng et al. 2023)：每个维度对的 θ′/θ</translation>
    </message>
    <message>
        <source>PI (linear, ×%1)</source>
        <translation>PI（线性，×%1）</translation>
    </message>
    <message>
        <source>NTK-aware (×%1)</source>
        <translation>NTK-aware (×%1)</translation>
    </message>
    <message>
        <source>YaRN (×%1)</source>
        <translation>YaRN (×%1)</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::HeatmapView</name>
    <message>
        <source>max %1</source>
        <translation>最大 %1</translation>
    </message>
    <message>
        <source>min %1</source>
        <translation>最小 %1</translation>
    </message>
    <message>
        <source>No data</source>
        <translation>无数据</translation>
    </message>
    <message>
        <source>%1 · View &gt; Subtract Mean shows the structure</source>
        <translation>%1 · “视图 &gt; 减去均值”可显示其结构</translation>
    </message>
    <message>
        <source>panel max</source>
        <translation>面板最大值</translation>
    </message>
    <message>
        <source>panel min</source>
        <translation>面板最小值</translation>
    </message>
    <message>
        <source>Wheel or + / −: zoom · drag or arrow keys: pan · double-click or 0: show everything · hover: the value under the cursor</source>
        <translation>滚轮或 + / −：缩放 · 拖动或方向键：平移 · 双击或 0：显示全部 · 悬停：光标处的数值</translation>
    </message>
    <message>
        <source>each panel&apos;s mean subtracted</source>
        <translation>已减去各面板的均值</translation>
    </message>
    <message>
        <source>mean %1 subtracted</source>
        <translation>已减去均值 %1</translation>
    </message>
    <message>
        <source>values %1 … %2: spread %3 % of the mean</source>
        <translation>数值 %1 … %2：离散程度为均值的 %3 %</translation>
    </message>
    <message>
        <source>one colour scale per panel</source>
        <translation>每个面板单独使用一个色标</translation>
    </message>
    <message>
        <source>%1 = %2</source>
        <translation>%1 = %2</translation>
    </message>
    <message>
        <source>mean </source>
        <translation>均值 </translation>
    </message>
    <message>
        <source>point sample of </source>
        <translation>点采样 </translation>
    </message>
    <message>
        <source>%1%2 = %3</source>
        <translation>%1%2 = %3</translation>
    </message>
    <message>
        <source>no value (masked)</source>
        <translation>无数值（已掩码）</translation>
    </message>
    <message>
        <source>&amp;Fit Colours to View</source>
        <translation>颜色适应视图(&amp;F)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+F</source>
        <translation>Ctrl+Shift+F</translation>
    </message>
    <message>
        <source>Heatmap: colour scale over the visible window&apos;s values (off: the whole matrix&apos;s scale, so a cell keeps its colour while you zoom and pan)</source>
        <translation>热力图：色标取可见窗口内的数值范围（关闭时使用整个矩阵的色标，缩放和平移时每个单元格的颜色保持不变）</translation>
    </message>
    <message>
        <source>scale: fitted to view</source>
        <translation>色标：适应视图</translation>
    </message>
    <message>
        <source>scale: whole matrix</source>
        <translation>色标：整个矩阵</translation>
    </message>
    <message>
        <source>Reset &amp;Zoom</source>
        <translation>重置缩放(&amp;Z)</translation>
    </message>
    <message>
        <source>value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>%1 “%2”</source>
        <comment>a position and the word at it</comment>
        <translation>%1「%2」</translation>
    </message>
    <message>
        <source>scale: each panel&apos;s view (range in its title)</source>
        <translation>色标：各面板的可见区域（范围见面板标题）</translation>
    </message>
    <message>
        <source>scale: each panel&apos;s own (range in its title)</source>
        <translation>色标：各面板各自的范围（见面板标题）</translation>
    </message>
    <message>
        <source>%1 (%2…%3)</source>
        <translation>%1（%2…%3）</translation>
    </message>
    <message>
        <source>same word in the other sentence: row %1 “%2”</source>
        <translation>另一句中的同一个词：第 %1 行“%2”</translation>
    </message>
    <message>
        <source>scale: each panel&apos;s own, fixed over the animation</source>
        <translation>色标：各面板各自的范围，整段动画不变</translation>
    </message>
    <message>
        <source>scale: fixed over the animation</source>
        <translation>色标：整段动画统一</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::JobTracker</name>
    <message>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::LabSweepFigure</name>
    <message>
        <source>Answer accuracy against length (%1, trained at %2)</source>
        <translation>答案准确率随长度的变化（%1，训练长度 %2）</translation>
    </message>
    <message>
        <source>sequence length (tokens)</source>
        <translation>序列长度（token）</translation>
    </message>
    <message>
        <source>answer accuracy</source>
        <translation>答案准确率</translation>
    </message>
    <message>
        <source>%1 with %2 ×%3</source>
        <comment>rope with yarn ×4: a method, its test-time scaling</comment>
        <translation>%1（测试时 %2 ×%3）</translation>
    </message>
    <message>
        <source>%1 (lowest and highest seed)</source>
        <translation>%1（最低和最高的种子）</translation>
    </message>
    <message>
        <source>trained %1</source>
        <translation>训练长度 %1</translation>
    </message>
    <message>
        <source>Held-out perplexity against length (%1, trained at %2)</source>
        <translation>留出文本的困惑度随长度的变化（%1，训练长度 %2）</translation>
    </message>
    <message>
        <source>perplexity</source>
        <translation>困惑度</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::LabSweepRunner</name>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Cancelled; %1 keeps its last checkpoint. Run again to resume: complete runs are reused.</source>
        <translation>已取消；%1 保留了最后一个检查点。再次运行即可继续：已完成的运行会被直接沿用。</translation>
    </message>
    <message>
        <source>posatlas-lab stopped with status %1: %2</source>
        <translation>posatlas-lab 以状态 %1 结束：%2</translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::LabWindow</name>
    <message>
        <source>Lab: train and measure positional encodings</source>
        <translation>实验室：训练并测量位置编码</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Export &amp;Figure…</source>
        <translation>导出图表(&amp;F)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Export figure</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG (*.png);;SVG (*.svg);;PDF (*.pdf)</source>
        <translation>PNG (*.png);;SVG (*.svg);;PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Export &amp;Table…</source>
        <translation>导出表格(&amp;T)…</translation>
    </message>
    <message>
        <source>Export table</source>
        <translation>导出表格</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON (*.json)</source>
        <translation>CSV (*.csv);;JSON (*.json)</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>Run %1 of %2: %3, seed %4 · evaluating</source>
        <translation>第 %1 个运行（共 %2 个）：%3，种子 %4 · 正在评估</translation>
    </message>
    <message>
        <source>The lab is not installed: posatlas-lab was found neither beside posatlas nor in its libexec folder (a build without LibTorch, POSATLAS_LAB=OFF). Sweeps cannot run; install the posatlas-lab package or build with LibTorch.</source>
        <translation>实验室未安装：在 posatlas 旁边和它的 libexec 文件夹里都没有找到 posatlas-lab（这是不带 LibTorch 的构建，POSATLAS_LAB=OFF）。无法运行扫描；请安装 posatlas-lab 软件包，或带 LibTorch 重新构建。</translation>
    </message>
    <message>
        <source>Task and training</source>
        <translation>任务与训练</translation>
    </message>
    <message>
        <source>copy: repeat a string</source>
        <translation>copy：把字符串照抄一遍</translation>
    </message>
    <message>
        <source>recall: the value of a key</source>
        <translation>recall：回忆某个键对应的值</translation>
    </message>
    <message>
        <source>induction: what followed the trigger</source>
        <translation>induction：触发符之后出现过什么</translation>
    </message>
    <message>
        <source>&amp;Task</source>
        <translation>任务(&amp;T)</translation>
    </message>
    <message>
        <source>small (2 layers, width 64, batch 32)</source>
        <translation>小型（2 层，宽度 64，批大小 32）</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个 token</translation>
    </message>
    <message>
        <source>Train &amp;length</source>
        <translation>训练长度(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Steps</source>
        <translation>步数(&amp;S)</translation>
    </message>
    <message>
        <source>Runs per encoding, with seeds 0, 1, …; the figure shows their mean and, dashed, the lowest and highest seed.</source>
        <translation>每种编码训练几次，种子依次为 0、1、…；图中画出它们的平均值，并用虚线画出最低和最高的种子。</translation>
    </message>
    <message>
        <source>S&amp;eeds</source>
        <translation>种子数(&amp;E)</translation>
    </message>
    <message>
        <source>Encodings</source>
        <translation>编码</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>评估</translation>
    </message>
    <message>
        <source>Sequence lengths to evaluate, increasing, comma-separated.</source>
        <translation>要评估的序列长度，递增，用逗号分隔。</translation>
    </message>
    <message>
        <source>Len&amp;gths</source>
        <translation>长度(&amp;G)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>A RoPE scaling applied at test time to the rope runs (the trained length is original_max_position_embeddings).</source>
        <translation>测试时对 rope 运行施加的 RoPE 缩放（训练长度即 original_max_position_embeddings）。</translation>
    </message>
    <message>
        <source>&amp;RoPE scaling</source>
        <translation>RoPE 缩放(&amp;R)</translation>
    </message>
    <message>
        <source>F&amp;actor</source>
        <translation>倍数(&amp;A)</translation>
    </message>
    <message>
        <source>Output folder</source>
        <translation>输出文件夹</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>R&amp;un</source>
        <translation>运行(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>Evaluation lengths</source>
        <translation>评估长度</translation>
    </message>
    <message>
        <source>Train length</source>
        <translation>训练长度</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Seeds</source>
        <translation>种子数</translation>
    </message>
    <message>
        <source>Factor</source>
        <translation>倍数</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>什么都没选</translation>
    </message>
    <message>
        <source>%1 must be %2 (got %3). Nothing was started.</source>
        <translation>%1 必须是 %2（现在是 %3）。没有开始任何运行。</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Run %1 of %2: %3, seed %4 · complete, reused</source>
        <translation>第 %1 个运行（共 %2 个）：%3，种子 %4 · 已完成，直接沿用</translation>
    </message>
    <message>
        <source>Run %1 of %2: %3, seed %4 · training</source>
        <translation>第 %1 个运行（共 %2 个）：%3，种子 %4 · 正在训练</translation>
    </message>
    <message>
        <source>Wrote sweep.csv and sweep.json in %1.</source>
        <translation>已在 %1 中写入 sweep.csv 和 sweep.json。</translation>
    </message>
    <message>
        <source>PosAtlas lab · %1</source>
        <translation>PosAtlas 实验室 · %1</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>%1: the table is written as .csv or .json</source>
        <translation>%1：表格只能写成 .csv 或 .json</translation>
    </message>
    <message>
        <source>tiny (1 layer, width 16, batch 8)</source>
        <translation>微型（1 层，宽度 16，批大小 8）</translation>
    </message>
    <message>
        <source>A quick look: trains in seconds, learns little.</source>
        <translation>快速看一眼：几秒钟就训练完，学到的东西很少。</translation>
    </message>
    <message>
        <source>Run %1 of %2: %3, seed %4 · step %5 of %6 · loss %7 · accuracy %8 % · %9 left in this run</source>
        <translation>第 %1 个运行（共 %2 个）：%3，种子 %4 · 第 %5 步（共 %6 步）· 损失 %7 · 准确率 %8 % · 本次运行还剩 %9</translation>
    </message>
    <message>
        <source>Sweep started: %1 (runs: %2).</source>
        <translation>扫描已开始：%1（共 %2 个运行）。</translation>
    </message>
    <message>
        <source>Done: every run evaluated.</source>
        <translation>完成：所有运行都已评估。</translation>
    </message>
    <message>
        <source>lm: the next character of the course&apos;s lessons (perplexity)</source>
        <translation>lm：预测课程讲义的下一个字符（困惑度）</translation>
    </message>
    <message>
        <source>The lm task reads the course&apos;s lessons, which were not found (they are installed with the lab). Nothing was started.</source>
        <translation>lm 任务要读取课程讲义，但没有找到它们（讲义随实验室一起安装）。没有启动任何运行。</translation>
    </message>
    <message>
        <source>Trained runs</source>
        <translation>训练好的运行</translation>
    </message>
    <message>
        <source>Open in &amp;Main Window…</source>
        <translation>在主窗口中打开(&amp;M)…</translation>
    </message>
    <message>
        <source>The run&apos;s own attention on an example longer than its training, in the main window&apos;s views</source>
        <translation>在主窗口的各个视图里查看这个运行自己的注意力，示例可以比训练时更长</translation>
    </message>
    <message>
        <source>Shipped runs: %1</source>
        <translation>随附的运行：%1</translation>
    </message>
    <message>
        <source>This sweep: %1 seed %2</source>
        <translation>本次扫描：%1 种子 %2</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::LayersPanel</name>
    <message>
        <source>Show layer %1</source>
        <translation>显示第 %1 层</translation>
    </message>
    <message>
        <source>G</source>
        <translation>全</translation>
    </message>
    <message>
        <source>S</source>
        <translation>滑</translation>
    </message>
    <message>
        <source>C</source>
        <translation>块</translation>
    </message>
    <message>
        <source>N</source>
        <translation>无</translation>
    </message>
    <message>
        <source>global attention</source>
        <translation>全局注意力</translation>
    </message>
    <message>
        <source>sliding window of %1 keys</source>
        <translation>滑动窗口，每个查询看 %1 个键</translation>
    </message>
    <message>
        <source>chunked attention, chunks of %1 positions</source>
        <translation>分块注意力，每块 %1 个位置</translation>
    </message>
    <message>
        <source>NoPE (no positional encoding)</source>
        <translation>NoPE（无位置编码）</translation>
    </message>
    <message>
        <source>RoPE θ = %1</source>
        <translation>RoPE θ = %1</translation>
    </message>
    <message>
        <source>RoPE θ = %1, %2 scaling ×%3</source>
        <translation>RoPE θ = %1，%2 缩放 ×%3</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <translation>%1；%2</translation>
    </message>
    <message>
        <source>; attention temperature log(⌊(p+1)/%1⌋+1)·%2+1 on the queries</source>
        <translation>；查询向量乘以注意力温度 log(⌊(p+1)/%1⌋+1)·%2+1</translation>
    </message>
    <message>
        <source>Layers of the model</source>
        <translation>模型的各层</translation>
    </message>
    <message>
        <source>Layer %1: %2</source>
        <translation>第 %1 层：%2</translation>
    </message>
    <message>
        <source>Open a model&apos;s config.json (File &gt; Open config.json…) to see its layers: each layer&apos;s attention span and positional encoding.</source>
        <translation>打开一个模型的 config.json（文件 &gt; 打开 config.json…），就能看到它的各层：每一层的注意力范围和位置编码。</translation>
    </message>
    <message>
        <source>Receptive field of position %1</source>
        <translation>位置 %1 的感受野</translation>
    </message>
    <message>
        <source>No layer selected: the scenario is the model&apos;s import.</source>
        <translation>未选择任何层：当前场景就是导入模型时得到的参数。</translation>
    </message>
    <message>
        <source>Shown: layer %1, %2.</source>
        <translation>当前显示：第 %1 层，%2。</translation>
    </message>
    <message>
        <source>%2 has one layer: %3. The parameter panel shows it.</source>
        <translation>%2 只有一层：%3。参数面板显示的就是这一层。</translation>
    </message>
    <message>
        <source>All %1 layers of %2 are alike: %3. The parameter panel shows them.</source>
        <translation>%2 的全部 %1 层都相同：%3。参数面板显示的就是它们。</translation>
    </message>
    <message>
        <source>%1: %2 layers. Select a layer (click, or ← → Home End) to show its positional encoding.</source>
        <translation>%1：共 %2 层。选中一层（单击，或按 ← → Home End），就会显示这一层的位置编码。</translation>
    </message>
    <message>
        <source>%1 layers (%2): %3</source>
        <translation>%1 层（%2）：%3</translation>
    </message>
    <message>
        <source>reach after k layers (positions back)</source>
        <translation>经过 k 层后能往回看多远（位置数）</translation>
    </message>
    <message>
        <source>The views mask the keys outside its window or chunk.</source>
        <translation>视图会把它的窗口或分块以外的键遮住。</translation>
    </message>
    <message>
        <source>The logits and weights scale its queries by the attention temperature.</source>
        <translation>logit 和权重里，这一层的查询都按注意力温度放大了。</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::LessonPanel</name>
    <message>
        <source>Course: positional encoding in transformers</source>
        <translation>课程：Transformer 中的位置编码</translation>
    </message>
    <message>
        <source>Choose a lesson. Each step sets up the figures; every control stays live, so move them and watch. PgDn / PgUp walk through the steps in presentation mode (F5).</source>
        <translation>选择一节课。每一步都会设置好图表；所有控件保持可用，拖动它们并观察变化。在演示模式 (F5) 中用 PgDn / PgUp 逐步前进或后退。</translation>
    </message>
    <message>
        <source>Open a lesson file…</source>
        <translation>打开课程文件…</translation>
    </message>
    <message>
        <source>Back to the course</source>
        <translation>返回课程目录</translation>
    </message>
    <message>
        <source>Close the lesson (the figures go back to what they showed before it)</source>
        <translation>关闭本课（图表恢复到打开本课之前的状态）</translation>
    </message>
    <message>
        <source>Previous step (PgUp in presentation mode)</source>
        <translation>上一步（演示模式中按 PgUp）</translation>
    </message>
    <message>
        <source>Next step (PgDn in presentation mode)</source>
        <translation>下一步（演示模式中按 PgDn）</translation>
    </message>
    <message>
        <source>Restore this step</source>
        <translation>恢复本步</translation>
    </message>
    <message>
        <source>Put the step&apos;s scenario back after moving the controls</source>
        <translation>拖动控件之后，恢复本步原来的场景</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <translation>%1. %2</translation>
    </message>
    <message>
        <source>%1 / %2 · %3</source>
        <translation>%1 / %2 · %3</translation>
    </message>
    <message>
        <source>Try this:</source>
        <translation>动手试试：</translation>
    </message>
    <message>
        <source>Question:</source>
        <translation>问题：</translation>
    </message>
    <message>
        <source>Answer:</source>
        <translation>答案：</translation>
    </message>
    <message>
        <source>Hide the answer</source>
        <translation>隐藏答案</translation>
    </message>
    <message>
        <source>Show the answer</source>
        <translation>显示答案</translation>
    </message>
    <message>
        <source>Play animation</source>
        <translation>播放动画</translation>
    </message>
    <message>
        <source>Play the step&apos;s animation here: the figure as one value moves</source>
        <translation>在这里播放本步的动画：某一个值变化时图表如何变化</translation>
    </message>
    <message>
        <source>Export this animation…</source>
        <translation>导出此动画…</translation>
    </message>
    <message>
        <source>Write the step&apos;s animation as MP4, GIF or animated PNG (File &gt; Export Animation…, filled in)</source>
        <translation>把本步的动画写出为 MP4、GIF 或动画 PNG（即已填好的“文件 &gt; 导出动画…”）</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ListSliders</name>
    <message>
        <source>Reset all</source>
        <translation>全部重置</translation>
    </message>
    <message>
        <source>Give every head the paper&apos;s slope 2^(-8h/n) again.</source>
        <translation>将所有头恢复为论文中的斜率 2^(-8h/n)。</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Heads %1 to %2 are not shown here: they keep the paper&apos;s slope unless a session or --slopes sets them.</source>
        <translation>此处未显示头 %1 到 %2：除非会话文件或 --slopes 设置了它们，它们保持论文中的斜率。</translation>
    </message>
    <message numerus="yes">
        <source>%n of them have a chosen slope.</source>
        <translation>
            <numerusform>其中 %n 个头设置了自定义斜率。</numerusform>
        </translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>Slope %1 of head %2</source>
        <translation>头 %2 的斜率 %1</translation>
    </message>
    <message>
        <source>Slope %1 of head %2: heads are counted from 0, as in the figures and --head %2 (the paper&apos;s h = %3)</source>
        <translation>头 %2 的斜率 %1：头从 0 开始编号，与图中及 --head %2 一致（论文中的 h = %3）</translation>
    </message>
    <message>
        <source>Reset the slope %1 of head %2</source>
        <translation>重置头 %2 的斜率 %1</translation>
    </message>
    <message>
        <source>Head %1: %2 → %3 (%4)</source>
        <translation>头 %1：%2 → %3（%4）</translation>
    </message>
    <message>
        <source>The figures use %1 = %2: the slider&apos;s %3 under %4.</source>
        <translation>图中使用 %1 = %2：即滑块的 %3 经 %4 之后的值。</translation>
    </message>
    <message>
        <source>Head %1: %2</source>
        <translation>头 %1：%2</translation>
    </message>
    <message>
        <source>Reset to the paper&apos;s slope 2^(-8h/n) with h = %1: %2</source>
        <translation>重置为论文中的斜率 2^(-8h/n)，h = %1：%2</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::LogSlider</name>
    <message>
        <source>%1 is above the maximum %2: set to %2</source>
        <translation>%1 高于最大值 %2：已设为 %2</translation>
    </message>
    <message>
        <source>%1 is below the minimum %2: set to %2</source>
        <translation>%1 低于最小值 %2：已设为 %2</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::MainWindow</name>
    <message>
        <source>&amp;Logits</source>
        <translation>注意力分数(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Encoding (positions × dimensions)</source>
        <translation>编码（位置 × 维度）(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Bias</source>
        <translation>偏置(&amp;B)</translation>
    </message>
    <message>
        <source>B&amp;ucket indices</source>
        <translation>桶索引(&amp;U)</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Heatmap</source>
        <translation>热力图</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>曲线</translation>
    </message>
    <message>
        <source>Rotation</source>
        <translation>旋转</translation>
    </message>
    <message>
        <source>Spectrum</source>
        <translation>频谱</translation>
    </message>
    <message>
        <source>Config import</source>
        <translation>配置导入</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open config.json…</source>
        <translation>打开 config.json(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a model&apos;s config.json</source>
        <translation>打开模型的 config.json</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Ctrl+Q</source>
        <translation>Ctrl+Q</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+Z</source>
        <translation>Ctrl+Shift+Z</translation>
    </message>
    <message>
        <source>&amp;Presets</source>
        <translation>预设(&amp;P)</translation>
    </message>
    <message>
        <source>Source: %1</source>
        <translation>来源：%1</translation>
    </message>
    <message>
        <source>%1 · source: %2</source>
        <translation>%1 · 来源：%2</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Go to View</source>
        <translation>转到视图(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Heatmap</source>
        <translation>热力图(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Curves</source>
        <translation>曲线(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Rotation</source>
        <translation>旋转(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Spectrum</source>
        <translation>频谱(&amp;S)</translation>
    </message>
    <message>
        <source>Ctrl+%1</source>
        <translation>Ctrl+%1</translation>
    </message>
    <message>
        <source>Heatmap &amp;Matrix</source>
        <translation>热力图矩阵(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Colour Map</source>
        <translation>配色方案(&amp;C)</translation>
    </message>
    <message>
        <source>Reset &amp;Zoom</source>
        <translation>重置缩放(&amp;Z)</translation>
    </message>
    <message>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <source>Heads as &amp;Small Multiples</source>
        <translation>按头显示小多图(&amp;S)</translation>
    </message>
    <message>
        <source>ALiBi and T5: one small heatmap per head, labelled with its slope</source>
        <translation>ALiBi 和 T5：每个头一张小热力图，并标注其斜率</translation>
    </message>
    <message>
        <source>One Colour Scale &amp;per Panel</source>
        <translation>每个面板单独色标(&amp;P)</translation>
    </message>
    <message>
        <source>Small multiples: each head coloured over its own range (off: one scale shared by all heads, which makes slow heads look flat)</source>
        <translation>小多图：每个头按自身数值范围着色（关闭时：所有头共用一个色标，会使变化慢的头看起来平坦）</translation>
    </message>
    <message>
        <source>Colour each heatmap&apos;s values minus their mean: shows the structure of a matrix whose spread is tiny against its mean</source>
        <translation>对每个热力图的数值减去其均值后再着色：可显示离散程度相对于均值极小的矩阵的结构</translation>
    </message>
    <message>
        <source>&amp;Overlay on Curves</source>
        <translation>叠加到曲线图(&amp;O)</translation>
    </message>
    <message>
        <source>Draw this method&apos;s logit against distance on the curves, with the same content vectors</source>
        <translation>在曲线图上绘制该方法的注意力分数随距离的变化，使用相同的内容向量</translation>
    </message>
    <message>
        <source>Context-&amp;extension explorer…</source>
        <translation>上下文扩展探索器(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <source>&amp;Dark Theme</source>
        <translation>深色主题(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard and Mouse</source>
        <translation>键盘和鼠标(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About PosAtlas</source>
        <translation>关于 PosAtlas(&amp;A)</translation>
    </message>
    <message>
        <source>About PosAtlas</source>
        <translation>关于 PosAtlas</translation>
    </message>
    <message>
        <source>&lt;b&gt;PosAtlas&lt;/b&gt; %1&lt;br&gt;See how transformer positional encodings work: sinusoidal, learned, Shaw, Transformer-XL, T5, DeBERTa, RoPE and its scalings, ALiBi and CoPE.&lt;br&gt;Drop a model&apos;s config.json on the window to see its positions.</source>
        <translation>&lt;b&gt;PosAtlas&lt;/b&gt; %1&lt;br&gt;直观了解 Transformer 位置编码的工作原理：正弦、可学习、Shaw、Transformer-XL、T5、DeBERTa、RoPE 及其缩放方法、ALiBi 和 CoPE。&lt;br&gt;将模型的 config.json 拖放到窗口上，即可查看其位置编码。</translation>
    </message>
    <message>
        <source>&amp;%1 %2</source>
        <translation>&amp;%1 %2</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>&amp;Clear List</source>
        <translation>清除列表(&amp;C)</translation>
    </message>
    <message>
        <source>Current scenario</source>
        <translation>当前场景</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>PosAtlas did not close cleanly last time. Restore the work autosaved at %1?

%2</source>
        <translation>PosAtlas 上次未正常关闭。是否恢复 %1 自动保存的内容？

%2</translation>
    </message>
    <message>
        <source>Restored the autosaved work</source>
        <translation>已恢复自动保存的内容</translation>
    </message>
    <message>
        <source>Restore autosaved work</source>
        <translation>恢复自动保存的内容</translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation>丢弃(&amp;D)</translation>
    </message>
    <message>
        <source>Cannot restore the autosave: %1</source>
        <translation>无法恢复自动保存的内容：%1</translation>
    </message>
    <message>
        <source>(recovered)</source>
        <translation>（已恢复）</translation>
    </message>
    <message>
        <source>The explorer&apos;s autosaved state did not fit and was left out</source>
        <translation>探索器的自动保存状态过大，未能保存</translation>
    </message>
    <message>
        <source>Cannot import %1: %2</source>
        <translation>无法导入 %1：%2</translation>
    </message>
    <message>
        <source>Import %1</source>
        <translation>导入 %1</translation>
    </message>
    <message>
        <source>Imported %1 (%2)</source>
        <translation>已导入 %1 (%2)</translation>
    </message>
    <message>
        <source>Cannot load preset %1: %2</source>
        <translation>无法加载预设 %1：%2</translation>
    </message>
    <message>
        <source>Preset %1</source>
        <translation>预设 %1</translation>
    </message>
    <message>
        <source>Preset %1 · source: %2</source>
        <translation>预设 %1 · 来源：%2</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>&lt;p&gt;Model type &lt;b&gt;%1&lt;/b&gt; → method &lt;b&gt;%2&lt;/b&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;模型类型 &lt;b&gt;%1&lt;/b&gt; → 方法 &lt;b&gt;%2&lt;/b&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>已读取</translation>
    </message>
    <message>
        <source>Read, not modelled yet (about positions)</source>
        <translation>已读取，尚未建模（与位置有关）</translation>
    </message>
    <message>
        <source>Not recognised</source>
        <translation>无法识别</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Heatmap: wheel, or + / −</source>
        <translation>热力图：滚轮，或 + / −</translation>
    </message>
    <message>
        <source>zoom about the cursor (keys: about the centre)</source>
        <translation>以光标为中心缩放（按键：以中心为准）</translation>
    </message>
    <message>
        <source>Heatmap: drag, or arrow keys</source>
        <translation>热力图：拖动，或方向键</translation>
    </message>
    <message>
        <source>pan (Shift + arrows: a whole window)</source>
        <translation>平移（Shift + 方向键：整个窗口）</translation>
    </message>
    <message>
        <source>Heatmap: double-click, or 0 / Home</source>
        <translation>热力图：双击，或 0 / Home</translation>
    </message>
    <message>
        <source>show the whole matrix again</source>
        <translation>重新显示整个矩阵</translation>
    </message>
    <message>
        <source>Heatmap: hover</source>
        <translation>热力图：悬停</translation>
    </message>
    <message>
        <source>the value of the cell under the cursor, in the status bar</source>
        <translation>光标下单元格的数值，显示在状态栏中</translation>
    </message>
    <message>
        <source>Curves: hover, or Left / Right</source>
        <translation>曲线：悬停，或左 / 右方向键</translation>
    </message>
    <message>
        <source>crosshair with the exact values at that distance (Shift: larger steps; Home / End: the ends; Esc hides it)</source>
        <translation>显示该距离处精确值的十字准线（Shift：更大步长；Home / End：两端；Esc 隐藏）</translation>
    </message>
    <message>
        <source>Rotation: slider, spin box, Play</source>
        <translation>旋转：滑块、数值框、播放</translation>
    </message>
    <message>
        <source>query position m; the key position n has its own box</source>
        <translation>查询位置 m；键位置 n 有单独的数值框</translation>
    </message>
    <message>
        <source>Parameters: drag a slider</source>
        <translation>参数：拖动滑块</translation>
    </message>
    <message>
        <source>one undo step per drag; Ctrl+Z works from any box</source>
        <translation>每次拖动为一个撤销步骤；在任何输入框中都可使用 Ctrl+Z</translation>
    </message>
    <message>
        <source>Window: drop a config.json or a session</source>
        <translation>窗口：拖放 config.json 或会话文件</translation>
    </message>
    <message>
        <source>opens it, as File › Open</source>
        <translation>将其打开，等同于“文件 › 打开”</translation>
    </message>
    <message>
        <source>Tab / Shift+Tab</source>
        <translation>Tab / Shift+Tab</translation>
    </message>
    <message>
        <source>move the focus between controls and views</source>
        <translation>在控件和视图之间移动焦点</translation>
    </message>
    <message>
        <source>Mouse and view keys</source>
        <translation>鼠标与视图按键</translation>
    </message>
    <message>
        <source>Shortcuts</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Keyboard and Mouse</source>
        <translation>键盘和鼠标</translation>
    </message>
    <message>
        <source>Pr&amp;eferences…</source>
        <translation>首选项(&amp;E)…</translation>
    </message>
    <message>
        <source>Model configs (*.json *.gguf);;All files (*)</source>
        <translation>模型配置 (*.json *.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Read a Hugging Face config.json or a llama.cpp .gguf file&apos;s metadata and apply its positional parameters (one undo step)</source>
        <translation>读取 Hugging Face config.json 或 llama.cpp .gguf 文件的元数据，并应用其中的位置参数（可一步撤销）</translation>
    </message>
    <message>
        <source>Presentation Te&amp;xt Size (%1 %)</source>
        <translation>演示文字大小(&amp;X)（%1 %）</translation>
    </message>
    <message>
        <source>Attention &amp;weights (softmax)</source>
        <translation>注意力权重(&amp;W) (softmax)</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>Open a lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>Lessons (*.md);;All files (*)</source>
        <translation>课程 (*.md);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open the lesson</source>
        <translation>无法打开课程</translation>
    </message>
    <message>
        <source>Lesson: %1</source>
        <translation>课程：%1</translation>
    </message>
    <message>
        <source>Close Lesson</source>
        <translation>关闭课程</translation>
    </message>
    <message>
        <source>Open &amp;Lesson…</source>
        <translation>打开课程(&amp;L)…</translation>
    </message>
    <message>
        <source>Open a lesson file (Markdown with a scenario per step, see the course&apos;s format)</source>
        <translation>打开课程文件（Markdown 格式，每一步附带一个场景，格式见课程说明）</translation>
    </message>
    <message>
        <source>&amp;Course</source>
        <translation>课程(&amp;C)</translation>
    </message>
    <message>
        <source>The built-in course on positional encoding: lessons that set up the figures step by step</source>
        <translation>内置的位置编码课程：逐步设置图表的课程</translation>
    </message>
    <message>
        <source>Compare Met&amp;hods…</source>
        <translation>比较方法(&amp;H)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+M</source>
        <translation>Ctrl+Shift+M</translation>
    </message>
    <message>
        <source>Show 2 to 4 methods side by side: one heatmap panel per method, their curves overlaid</source>
        <translation>并排显示 2 到 4 种方法：每种方法一个热力图面板，曲线叠加显示</translation>
    </message>
    <message>
        <source>Compare: Sinusoidal, RoPE, &amp;ALiBi</source>
        <translation>比较：正弦、RoPE、ALiBi(&amp;A)</translation>
    </message>
    <message>
        <source>The three common encodings side by side, each with its own parameters</source>
        <translation>并排显示三种常见的位置编码，各用自己的参数</translation>
    </message>
    <message>
        <source>Back to the current method alone</source>
        <translation>回到只显示当前方法</translation>
    </message>
    <message>
        <source>Compare methods: %1</source>
        <translation>比较方法：%1</translation>
    </message>
    <message>
        <source>Comparing: %1 — %2 — %3</source>
        <translation>正在比较：%1 — %2 — %3</translation>
    </message>
    <message>
        <source>Cannot open model %1: %2</source>
        <translation>无法打开模型 %1：%2</translation>
    </message>
    <message>
        <source>Open model %1</source>
        <translation>打开模型 %1</translation>
    </message>
    <message>
        <source>Opened %1 (%2)</source>
        <translation>已打开 %1 (%2)</translation>
    </message>
    <message>
        <source>Open weights</source>
        <translation>打开权重</translation>
    </message>
    <message>
        <source>Checkpoints (*.safetensors *.safetensors.index.json);;All files (*)</source>
        <translation>检查点 (*.safetensors *.safetensors.index.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Cannot use %1 of %2: %3</source>
        <translation>无法使用 %2 中的 %1：%3</translation>
    </message>
    <message>
        <source>Weights %1</source>
        <translation>权重 %1</translation>
    </message>
    <message>
        <source>Open &amp;Model…</source>
        <translation>打开模型(&amp;M)…</translation>
    </message>
    <message>
        <source>Open a model from the local Hugging Face cache, or download its config and position tensors from the Hub</source>
        <translation>从本地 Hugging Face 缓存打开模型，或从 Hub 下载其配置和位置张量</translation>
    </message>
    <message>
        <source>Open &amp;Weights…</source>
        <translation>打开权重(&amp;W)…</translation>
    </message>
    <message>
        <source>Use a tensor of a .safetensors checkpoint as the learned position table</source>
        <translation>将 .safetensors 检查点中的一个张量用作可学习位置表</translation>
    </message>
    <message>
        <source>timings: waiting for a view to compute</source>
        <translation>耗时：等待视图完成计算</translation>
    </message>
    <message>
        <source>Point Sample &amp;beside Mean</source>
        <translation>在块均值旁显示点采样(&amp;B)</translation>
    </message>
    <message>
        <source>Heatmap: the point sample of the same window beside its exact block means, on one colour scale, to show what aliasing draws</source>
        <translation>热图：在同一窗口的精确块均值旁显示其点采样，使用同一色标，以展示混叠画出的图样</translation>
    </message>
    <message>
        <source>Show &amp;Timings</source>
        <translation>显示耗时(&amp;T)</translation>
    </message>
    <message>
        <source>Show in the status bar how many milliseconds each visible view takes to compute and to paint</source>
        <translation>在状态栏显示每个可见视图计算和绘制所用的毫秒数</translation>
    </message>
    <message>
        <source>%1: %2 of %3</source>
        <translation>%1：%3 中的 %2</translation>
    </message>
    <message>
        <source>Stop Compa&amp;ring</source>
        <translation>停止比较(&amp;R)</translation>
    </message>
    <message>
        <source>Pane&amp;ls</source>
        <translation>面板(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Parameters</source>
        <translation>参数(&amp;P)</translation>
    </message>
    <message>
        <source>Config &amp;import</source>
        <translation>配置导入(&amp;I)</translation>
    </message>
    <message>
        <source>S&amp;ubtract Mean</source>
        <translation>减去均值(&amp;U)</translation>
    </message>
    <message>
        <source>Notices</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>%1. Your changes since the last autosave are not protected.</source>
        <translation>%1。自上次自动保存以来的修改没有受到保护。</translation>
    </message>
    <message>
        <source>Autosave is off: %1.</source>
        <translation>自动保存已关闭：%1。</translation>
    </message>
    <message>
        <source>&amp;Retry</source>
        <translation>重试(&amp;R)</translation>
    </message>
    <message>
        <source>Autosave is on</source>
        <translation>自动保存已开启</translation>
    </message>
    <message>
        <source>The autosaved work could not be read (%1) and stays in %2; autosave is paused until it is moved away.</source>
        <translation>无法读取自动保存的内容（%1），它仍留在 %2；在把它移走之前，自动保存暂停。</translation>
    </message>
    <message>
        <source>The autosaved work could not be read (%1). It was kept as %2.</source>
        <translation>无法读取自动保存的内容（%1），已将其保留为 %2。</translation>
    </message>
    <message>
        <source>It uses files that are missing (on a drive that is not mounted?):
%1

Locate… lets you point at them. Restore without them uses the default in their place and keeps the autosave as it was in a .bak file.</source>
        <translation>它用到的以下文件不存在（所在的驱动器是否没有挂载？）：
%1

点“定位…”可以指出这些文件的位置。不带它们恢复时，缺少的部分使用默认值，原来的自动保存保留为一个 .bak 文件。</translation>
    </message>
    <message>
        <source>Discarded the autosaved work</source>
        <translation>已丢弃自动保存的内容</translation>
    </message>
    <message>
        <source>The autosaved work could not be restored. It was kept as %1.</source>
        <translation>无法恢复自动保存的内容，已将其保留为 %1。</translation>
    </message>
    <message>
        <source>Restored the autosaved work without %1 (missing); the default takes its place.</source>
        <translation>已恢复自动保存的内容，但缺少 %1，这部分使用默认值。</translation>
    </message>
    <message>
        <source>Restored the autosaved work without %1 (missing); the default takes its place. The autosave as it was is kept as %2.</source>
        <translation>已恢复自动保存的内容，但缺少 %1，这部分使用默认值。原来的自动保存已保留为 %2。</translation>
    </message>
    <message>
        <source>&amp;Locate…</source>
        <translation>定位(&amp;L)…</translation>
    </message>
    <message>
        <source>Locate %1</source>
        <translation>定位 %1</translation>
    </message>
    <message>
        <source>The autosaved work from the last run is kept in %1 until you restore or discard it; until then this window&apos;s changes are not autosaved.</source>
        <translation>上次运行自动保存的内容保留在 %1，直到你恢复或丢弃它；在此之前，本窗口的修改不会自动保存。</translation>
    </message>
    <message>
        <source>Restore or Discard…</source>
        <translation>恢复或丢弃…</translation>
    </message>
    <message>
        <source>unknown key %1</source>
        <translation>未知的键名 %1</translation>
    </message>
    <message>
        <source>unknown key %1 (did you mean %2?)</source>
        <translation>未知的键名 %1（是不是想写 %2？）</translation>
    </message>
    <message>
        <source>%1: these keys were ignored and their values are the defaults: %2</source>
        <translation>%1：以下键名已被忽略，相应的值使用默认值：%2</translation>
    </message>
    <message>
        <source>La&amp;ter</source>
        <translation>稍后(&amp;T)</translation>
    </message>
    <message>
        <source>Layers (%1)</source>
        <translation>各层（共 %1 层）</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Lab…</source>
        <translation>实验室(&amp;L)…</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>各层</translation>
    </message>
    <message>
        <source>La&amp;yers</source>
        <translation>各层(&amp;Y)</translation>
    </message>
    <message>
        <source>Cannot open the trained run</source>
        <translation>无法打开训练好的运行</translation>
    </message>
    <message>
        <source>%1 · layer %2 · head %3 · %4 tokens (trained at %5)</source>
        <translation>%1 · 层 %2 · 头 %3 · %4 个 token（训练长度 %5）</translation>
    </message>
    <message>
        <source>Open Trained Run %1</source>
        <translation>打开训练好的运行 %1</translation>
    </message>
    <message>
        <source>Trained run on screen: %1</source>
        <translation>当前显示的训练好的运行：%1</translation>
    </message>
    <message>
        <source>Open &amp;Trained Run…</source>
        <translation>打开训练好的运行(&amp;T)…</translation>
    </message>
    <message>
        <source>Show a model trained in the lab on an example of any length: its own attention logits and weights, past its trained length too</source>
        <translation>用任意长度的示例查看在实验室里训练好的模型：它自己的注意力 logit 和权重，超出训练长度的部分也能看到</translation>
    </message>
    <message>
        <source>Token layout</source>
        <translation>词元布局</translation>
    </message>
    <message>
        <source>Patch grid</source>
        <translation>图像块网格</translation>
    </message>
    <message>
        <source>Patch &amp;grid</source>
        <translation>图像块网格(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Token layout</source>
        <translation>词元布局(&amp;T)</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ModelDialog</name>
    <message>
        <source>Open Model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <source>Models in the Hugging Face cache %1</source>
        <translation>Hugging Face 缓存 %1 中的模型</translation>
    </message>
    <message>
        <source>org/name or org/name@revision, e.g. openai-community/gpt2</source>
        <translation>org/name 或 org/name@revision，例如 openai-community/gpt2</translation>
    </message>
    <message>
        <source>Download…</source>
        <translation>下载…</translation>
    </message>
    <message>
        <source>Fetch the model&apos;s config.json and only its position tensors from the Hub ($HF_ENDPOINT, token $HF_TOKEN) into the cache</source>
        <translation>从 Hub（$HF_ENDPOINT，令牌 $HF_TOKEN）获取模型的 config.json 及其位置张量（仅此部分）并存入缓存</translation>
    </message>
    <message>
        <source>Cancel Download</source>
        <translation>取消下载</translation>
    </message>
    <message>
        <source>position tensors</source>
        <translation>位置张量</translation>
    </message>
    <message>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message>
        <source>No config.json in this snapshot</source>
        <translation>此快照中没有 config.json</translation>
    </message>
    <message>
        <source>No models cached yet: type a model&apos;s name and press Download…</source>
        <translation>尚未缓存任何模型：输入模型名称并点击“下载…”</translation>
    </message>
    <message>
        <source>Downloading %1 from %2…</source>
        <translation>正在从 %2 下载 %1…</translation>
    </message>
    <message>
        <source>Downloaded %1.</source>
        <translation>已下载 %1。</translation>
    </message>
    <message>
        <source>Download failed: %1</source>
        <translation>下载失败：%1</translation>
    </message>
    <message>
        <source>Download of %1 cancelled.</source>
        <translation>已取消下载 %1。</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::NoticeArea</name>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ParameterMessage</name>
    <message>
        <source>an integer in [%1, %2]</source>
        <translation>[%1, %2] 内的整数</translation>
    </message>
    <message>
        <source>an even integer in [%1, %2]</source>
        <translation>[%1, %2] 内的偶数</translation>
    </message>
    <message>
        <source>&gt;= %1 and &lt;= %2</source>
        <translation>&gt;= %1 且 &lt;= %2</translation>
    </message>
    <message>
        <source>&gt; %1 and &lt;= %2</source>
        <translation>&gt; %1 且 &lt;= %2</translation>
    </message>
    <message>
        <source>one of %1 for %2</source>
        <translation>%2 可用的取值之一：%1</translation>
    </message>
    <message>
        <source>one of %1</source>
        <translation>以下取值之一：%1</translation>
    </message>
    <message>
        <source>finite</source>
        <translation>有限数</translation>
    </message>
    <message>
        <source>finite numbers</source>
        <translation>有限数</translation>
    </message>
    <message>
        <source>at most %1 (%2: %3 MiB would exceed the %4 MiB memory budget)</source>
        <translation>不超过 %1（%2：%3 MiB 将超出 %4 MiB 的内存预算）</translation>
    </message>
    <message>
        <source>small enough that the matrix (%1 x %2) has at most %3 elements</source>
        <translation>足够小，使矩阵（%1 x %2）不超过 %3 个元素</translation>
    </message>
    <message>
        <source>a sentence of at most %1 tokens</source>
        <translation>不超过 %1 个词元的句子</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <comment>a parameter: its label, then its key</comment>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 must be %2 (got %3)</source>
        <translation>%1 必须是 %2（当前为 %3）</translation>
    </message>
    <message>
        <source>increasing integers in [%1, %2]</source>
        <translation>[%1, %2] 中递增的整数</translation>
    </message>
    <message>
        <source>a comma-separated list of distinct %1</source>
        <translation>用逗号分隔、互不重复的列表，取自 %1</translation>
    </message>
    <message>
        <source>a new folder, an empty folder or a sweep&apos;s folder</source>
        <translation>一个新文件夹、一个空文件夹，或一个扫描的文件夹</translation>
    </message>
    <message>
        <source>a sweep folder whose runs were trained with these settings (%1 seed %2 was trained with others: see its config.json; choose another folder, or remove that run to train it again)</source>
        <translation>一个扫描文件夹，其中的运行须按这组设置训练（%1 种子 %2 是按别的设置训练的：见它的 config.json；请换一个文件夹，或删掉那次运行让它重新训练）</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ParameterPanel</name>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>The positional-encoding method whose matrices and curves are shown.</source>
        <translation>显示其矩阵和曲线的位置编码方法。</translation>
    </message>
    <message>
        <source>&amp;Method</source>
        <translation>方法(&amp;M)</translation>
    </message>
    <message>
        <source>%1 parameters</source>
        <translation>%1 参数</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message numerus="yes">
        <source>%n values: %1%2</source>
        <translation>
            <numerusform>%n 个值：%1%2</numerusform>
        </translation>
    </message>
    <message>
        <source>e.g. the dog bit the man</source>
        <translation>例如：今天天气很好</translation>
    </message>
    <message>
        <source>From file…</source>
        <translation>来自文件…</translation>
    </message>
    <message>
        <source>Content from files</source>
        <translation>内容来自文件</translation>
    </message>
    <message>
        <source>Content vectors</source>
        <translation>内容向量</translation>
    </message>
    <message>
        <source>Queries and keys from %1.</source>
        <translation>查询与键来自 %1。</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::PatchGridExport</name>
    <message>
        <source>%1: unknown extension; use one of %2</source>
        <translation>%1：扩展名未知；请使用 %2 之一</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::PatchGridJob</name>
    <message>
        <source>%1 · %2 × %3 patch grid · query patch %4 (row %5, column %6) · %7</source>
        <translation>%1 · %2 × %3 图像块网格 · 查询图像块 %4（第 %5 行，第 %6 列） · %7</translation>
    </message>
    <message>
        <source>grey: %1 patches with no value (outside the query&apos;s window)</source>
        <translation>灰色：%1 个没有值的图像块（在查询图像块的窗口之外）</translation>
    </message>
    <message>
        <source>The patch grid is shown for methods of image patches (2D RoPE, RoPE-Mixed, Swin, ViT).</source>
        <translation>图像块网格只在以图像块为位置的方法下显示（二维 RoPE、RoPE-Mixed、Swin、ViT）。</translation>
    </message>
    <message>
        <source>%1 · %2 × %3 patch grid · query patch %4 (row %5, column %6) · %7 · the CLS token&apos;s row left out</source>
        <translation>%1 · %2 × %3 图像块网格 · 查询图像块 %4（第 %5 行，第 %6 列） · %7 · 不含 CLS 词元那一行</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::PatchGridPanel</name>
    <message>
        <source>Query patch %1 at row %2, column %3</source>
        <translation>查询图像块 %1：第 %2 行，第 %3 列</translation>
    </message>
    <message>
        <source>no value</source>
        <translation>无数值</translation>
    </message>
    <message>
        <source>Patch %1 at row %2, column %3: %4 %5</source>
        <translation>图像块 %1（第 %2 行，第 %3 列）：%4 %5</translation>
    </message>
    <message>
        <source>Point at a patch to read its value; click it, or use the arrow keys, to make it the query.</source>
        <translation>把鼠标指向一个图像块，就能读出它的数值；单击它或用方向键，可以把它选为查询。</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Export the figure (PNG, SVG, PDF) or its numbers (CSV, JSON)</source>
        <translation>导出图（PNG、SVG、PDF）或其数值（CSV、JSON）</translation>
    </message>
    <message>
        <source>Cannot export the patch grid</source>
        <translation>无法导出图像块网格</translation>
    </message>
    <message>
        <source>Patch grid</source>
        <translation>图像块网格</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <source>The language of menus, panels, figures and messages. &quot;System language&quot; follows the desktop&apos;s locale (Chinese for any Chinese locale, English otherwise).</source>
        <translation>菜单、面板、图表和提示信息所用的语言。“系统语言”跟随桌面的区域设置（任何中文区域设置为中文，其他为英文）。</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>The new language applies the next time PosAtlas starts.</source>
        <translation>新的界面语言在下次启动 PosAtlas 时生效。</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::Presentation</name>
    <message>
        <source>Prese&amp;nt</source>
        <translation>演示(&amp;N)</translation>
    </message>
    <message>
        <source>Full screen for a projector: one figure, larger text, PgDn / PgUp step through the presets; Esc or F5 leaves</source>
        <translation>全屏用于投影：单个图表、更大的文字，PgDn / PgUp 逐个切换预设；按 Esc 或 F5 退出</translation>
    </message>
    <message>
        <source>&amp;Larger Text</source>
        <translation>增大文字(&amp;L)</translation>
    </message>
    <message>
        <source>Ctrl+=</source>
        <translation>Ctrl+=</translation>
    </message>
    <message>
        <source>Ctrl++</source>
        <translation>Ctrl++</translation>
    </message>
    <message>
        <source>&amp;Smaller Text</source>
        <translation>减小文字(&amp;S)</translation>
    </message>
    <message>
        <source>Ctrl+-</source>
        <translation>Ctrl+-</translation>
    </message>
    <message>
        <source>&amp;Normal Text (100 %)</source>
        <translation>正常文字(&amp;N)（100 %）</translation>
    </message>
    <message>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <source>H&amp;igh-Contrast Theme</source>
        <translation>高对比度主题(&amp;I)</translation>
    </message>
    <message>
        <source>While presenting: white background, black text and thicker lines</source>
        <translation>演示时：白色背景、黑色文字和更粗的线条</translation>
    </message>
    <message>
        <source>Show Parameters &amp;While Presenting</source>
        <translation>演示时显示参数(&amp;W)</translation>
    </message>
    <message>
        <source>While presenting: show the parameter panel beside the figure</source>
        <translation>演示时：在图表旁显示参数面板</translation>
    </message>
    <message>
        <source>– / %1 · PgDn: next</source>
        <translation>– / %1 · PgDn：下一步</translation>
    </message>
    <message>
        <source>%1 / %2 · %3</source>
        <translation>%1 / %2 · %3</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ReceptiveFieldChart</name>
    <message>
        <source>After the first layer, position %2 sees back to position %3 (%4 positions).</source>
        <translation>经过第一层后，位置 %2 最远能看到位置 %3（往回 %4 个位置）。</translation>
    </message>
    <message>
        <source>After %1 layers, position %2 sees back to position %3 (%4 positions).</source>
        <translation>经过 %1 层后，位置 %2 最远能看到位置 %3（往回 %4 个位置）。</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::RotationControls</name>
    <message>
        <source>Key position n: the key vector is rotated by n θᵢ; the arcs show (m − n) θᵢ</source>
        <translation>键位置 n：键向量旋转 n θᵢ；圆弧表示 (m − n) θᵢ</translation>
    </message>
    <message>
        <source>Play / pause: advance the query position m</source>
        <translation>播放 / 暂停：推进查询位置 m</translation>
    </message>
    <message>
        <source>Query position m</source>
        <translation>查询位置 m</translation>
    </message>
    <message>
        <source> pos/s</source>
        <translation> 位置/秒</translation>
    </message>
    <message>
        <source>Animation speed in positions per second</source>
        <translation>动画速度，单位为每秒位置数</translation>
    </message>
    <message>
        <source>m</source>
        <translation>m</translation>
    </message>
    <message>
        <source>n</source>
        <translation>n</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::RotationView</name>
    <message>
        <source>query m = %1</source>
        <translation>查询 m = %1</translation>
    </message>
    <message>
        <source>key n = %1</source>
        <translation>键 n = %1</translation>
    </message>
    <message>
        <source>relative (m − n) θᵢ, m − n = %1</source>
        <translation>相对 (m − n) θᵢ，m − n = %1</translation>
    </message>
    <message>
        <source>pair %1 · θ = %2</source>
        <translation>维度对 %1 · θ = %2</translation>
    </message>
    <message>
        <source>wavelength %1</source>
        <translation>波长 %1</translation>
    </message>
    <message>
        <source>all %1 pairs at m = %2</source>
        <translation>m = %2 处的全部 %1 个维度对</translation>
    </message>
    <message>
        <source>outer: pair 0 (fast) · inner: pair %1 (slow)</source>
        <translation>外圈：维度对 0（快）· 内圈：维度对 %1（慢）</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ScenarioModel</name>
    <message>
        <source>Change %1</source>
        <translation>更改 %1</translation>
    </message>
    <message>
        <source>Change Method</source>
        <translation>更改方法</translation>
    </message>
    <message>
        <source>Change %1 (head %2)</source>
        <translation>更改%1（头 %2）</translation>
    </message>
    <message>
        <source>Reset %1 (head %2)</source>
        <translation>重置%1（头 %2）</translation>
    </message>
    <message>
        <source>Reset %1</source>
        <translation>重置%1</translation>
    </message>
    <message>
        <source>Change %1 (%2 %3)</source>
        <translation>更改 %1（%2 %3）</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::SessionActions</name>
    <message>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <source>Open a .posatlas.json session: method, parameters, views and their settings</source>
        <translation>打开 .posatlas.json 会话：方法、参数、视图及其设置</translation>
    </message>
    <message>
        <source>&amp;Save Session…</source>
        <translation>保存会话(&amp;S)…</translation>
    </message>
    <message>
        <source>Save the method, every parameter and the views&apos; settings as a .posatlas.json file</source>
        <translation>将方法、所有参数和视图设置保存为 .posatlas.json 文件</translation>
    </message>
    <message>
        <source>&amp;Export Figure…</source>
        <translation>导出图表(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Write the current view (or several views) as PNG, SVG or PDF</source>
        <translation>将当前视图（或多个视图）写出为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>Export &amp;Data…</source>
        <translation>导出数据(&amp;D)…</translation>
    </message>
    <message>
        <source>Write the numbers behind the current view as CSV or JSON</source>
        <translation>将当前视图背后的数值写出为 CSV 或 JSON</translation>
    </message>
    <message>
        <source>&amp;Copy Figure</source>
        <translation>复制图表(&amp;C)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <source>Copy the current view to the clipboard as an image (2x) and SVG</source>
        <translation>将当前视图以图像 (2x) 和 SVG 形式复制到剪贴板</translation>
    </message>
    <message>
        <source>Open Session %1</source>
        <translation>打开会话 %1</translation>
    </message>
    <message>
        <source>Cannot open the session</source>
        <translation>无法打开会话</translation>
    </message>
    <message>
        <source>Opened session %1</source>
        <translation>已打开会话 %1</translation>
    </message>
    <message>
        <source>Cannot save the session</source>
        <translation>无法保存会话</translation>
    </message>
    <message>
        <source>Saved session %1</source>
        <translation>已保存会话 %1</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>PosAtlas sessions (*.posatlas.json);;JSON (*.json)</source>
        <translation>PosAtlas 会话 (*.posatlas.json);;JSON (*.json)</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>PosAtlas sessions (*.posatlas.json)</source>
        <translation>PosAtlas 会话 (*.posatlas.json)</translation>
    </message>
    <message>
        <source>cannot compute the %1 view: %2</source>
        <translation>无法计算 %1 视图：%2</translation>
    </message>
    <message>
        <source>no view chosen</source>
        <translation>未选择视图</translation>
    </message>
    <message>
        <source>the visible window has %1 × %2 cells%3; Export Data writes at most %4 (2048 × 2048): zoom in, or export the view&apos;s grid</source>
        <translation>可见窗口包含 %1 × %2 个单元格%3；“导出数据”最多写出 %4 个 (2048 × 2048)：请放大，或导出视图的网格</translation>
    </message>
    <message>
        <source> per panel</source>
        <translation> (每个面板)</translation>
    </message>
    <message>
        <source>Copied %1 to the clipboard</source>
        <translation>已将 %1 复制到剪贴板</translation>
    </message>
    <message>
        <source>Cannot copy the figure</source>
        <translation>无法复制图表</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>CSV of the view&apos;s grid (*.csv)</source>
        <translation>视图网格的 CSV (*.csv)</translation>
    </message>
    <message>
        <source>JSON of the view&apos;s grid (*.json)</source>
        <translation>视图网格的 JSON (*.json)</translation>
    </message>
    <message>
        <source>CSV of every cell in the visible window (*.csv)</source>
        <translation>可见窗口中所有单元格的 CSV (*.csv)</translation>
    </message>
    <message>
        <source>JSON of every cell in the visible window (*.json)</source>
        <translation>可见窗口中所有单元格的 JSON (*.json)</translation>
    </message>
    <message>
        <source>CSV with a header row (*.csv);;JSON (*.json)</source>
        <translation>带表头行的 CSV (*.csv);;JSON (*.json)</translation>
    </message>
    <message>
        <source>Export data</source>
        <translation>导出数据</translation>
    </message>
    <message>
        <source>Open Sessio&amp;n…</source>
        <translation>打开会话(&amp;N)…</translation>
    </message>
    <message>
        <source>Export &amp;Animation…</source>
        <translation>导出动画(&amp;A)…</translation>
    </message>
    <message>
        <source>Write the current view as MP4, GIF or animated PNG while one value moves</source>
        <translation>让某一个值变化，把当前视图写出为 MP4、GIF 或动画 PNG</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::SpectrumView</name>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Wavelength per pair</source>
        <translation>每个维度对的波长</translation>
    </message>
    <message>
        <source>pair i</source>
        <translation>维度对 i</translation>
    </message>
    <message>
        <source>wavelength (positions)</source>
        <translation>波长（位置）</translation>
    </message>
    <message>
        <source>original</source>
        <translation>原始</translation>
    </message>
    <message>
        <source>scaled</source>
        <translation>缩放后</translation>
    </message>
    <message>
        <source>scaled (%1)</source>
        <translation>缩放后 (%1)</translation>
    </message>
    <message>
        <source>trained %1</source>
        <translation>训练长度 %1</translation>
    </message>
    <message>
        <source>target %1</source>
        <translation>目标长度 %1</translation>
    </message>
    <message>
        <source>Frequency ratio θ′/θ per pair</source>
        <translation>每个维度对的频率比 θ′/θ</translation>
    </message>
    <message>
        <source>ratio</source>
        <translation>比值</translation>
    </message>
    <message>
        <source>θ′/θ</source>
        <translation>θ′/θ</translation>
    </message>
    <message>
        <source>unscaled θ′ = θ</source>
        <translation>未缩放 θ′ = θ</translation>
    </message>
    <message>
        <source>YaRN ramp</source>
        <translation>YaRN 斜坡函数</translation>
    </message>
    <message>
        <source>attention factor %1 on cos and sin (logits × %2)</source>
        <translation>注意力因子 %1（作用于 cos 与 sin，注意力分数 × %2）</translation>
    </message>
    <message>
        <source>attention factor %1 on cos and sin, softmax scale × %2 (logits × %3)</source>
        <translation>注意力因子 %1（作用于 cos 与 sin），softmax 缩放 × %2（注意力分数 × %3）</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::TokenLayoutController</name>
    <message>
        <source>Export Figure…</source>
        <translation>导出图表…</translation>
    </message>
    <message>
        <source>Write the token layout as PNG, SVG or PDF</source>
        <translation>将词元布局写出为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>Export Data…</source>
        <translation>导出数据…</translation>
    </message>
    <message>
        <source>cannot compute the token layout: %1</source>
        <translation>无法计算词元布局：%1</translation>
    </message>
    <message>
        <source>Token layout</source>
        <translation>词元布局</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Write each token&apos;s kind and (t, h, w) ids as CSV, or with each pair&apos;s axis as JSON</source>
        <translation>将每个词元的类别和 (t, h, w) 位置编号写出为 CSV；写成 JSON 时另含每个维度对所属的轴</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::TokenLayoutJob</name>
    <message numerus="yes">
        <source>text · %n token(s)</source>
        <translation>
            <numerusform>文本 · %n 个词元</numerusform>
        </translation>
    </message>
    <message>
        <source>image %1 patches → %2 tokens</source>
        <translation>图像 %1 个图像块 → 合并成 %2 个词元</translation>
    </message>
    <message>
        <source>video %1 patches → %2 tokens</source>
        <translation>视频 %1 个图像块 → 合并成 %2 个词元</translation>
    </message>
    <message>
        <source>The token layout shows M-RoPE&apos;s (t, h, w) position ids: choose the method M-RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL)</source>
        <translation>词元布局展示 M-RoPE 给每个词元的三个位置编号 (t, h, w)：请先把方法选为 M-RoPE（Qwen2-VL、Qwen2.5-VL、Qwen3-VL）</translation>
    </message>
    <message>
        <source>M-RoPE token layout · %1</source>
        <translation>M-RoPE 词元布局 · %1</translation>
    </message>
    <message>
        <source>the first %1 of %2 tokens (whole items only)</source>
        <translation>这里只画出 %2 个词元中的前 %1 个（只画完整的条目）</translation>
    </message>
    <message>
        <source>a video&apos;s t advances %1 per frame (second_per_grid_t × tokens_per_second)</source>
        <translation>视频每过一帧，t 增加 %1（second_per_grid_t × tokens_per_second）</translation>
    </message>
    <message>
        <source>each video frame is a grid of its own (Qwen3-VL)</source>
        <translation>视频的每一帧各自是一个网格（Qwen3-VL）</translation>
    </message>
    <message>
        <source> · </source>
        <translation> · </translation>
    </message>
</context>
<context>
    <name>posatlas::ui::TokenLayoutView</name>
    <message>
        <source>the %1 rotary pairs of a head, interleaved: t h w t h w … · t %2 pairs · h %3 · w %4</source>
        <translation>一个注意力头的 %1 个维度对，交错分配：t h w t h w … · t 占 %2 对 · h 占 %3 对 · w 占 %4 对</translation>
    </message>
    <message>
        <source>%1: pairs %2–%3</source>
        <translation>%1：第 %2–%3 对</translation>
    </message>
    <message>
        <source>the %1 rotary pairs of a head, in chunks · %2</source>
        <translation>一个注意力头的 %1 个维度对，分段分配 · %2</translation>
    </message>
    <message>
        <source> · </source>
        <translation> · </translation>
    </message>
    <message>
        <source>each cell, top to bottom:</source>
        <translation>每个格子里从上到下依次是：</translation>
    </message>
    <message>
        <source>t (time)</source>
        <translation>t（时间）</translation>
    </message>
    <message>
        <source>h (row)</source>
        <translation>h（行）</translation>
    </message>
    <message>
        <source>w (column)</source>
        <translation>w（列）</translation>
    </message>
    <message>
        <source>%1 of %2 tokens fit; enlarge the view</source>
        <translation>%2 个词元中只放下了 %1 个；请把视图拉大一些</translation>
    </message>
    <message>
        <source>each cell, left to right:</source>
        <translation>每个格子里从左到右依次是：</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::TrainedRunDialog</name>
    <message>
        <source>Open Trained Run</source>
        <translation>打开训练好的运行</translation>
    </message>
    <message>
        <source>A trained model of the lab on one example input of any length: the heatmap shows its own attention logits and weights, past the length it was trained at too.</source>
        <translation>让实验室里训练好的模型读一个任意长度的示例输入：热力图显示的就是它自己的注意力 logit 和权重，超出训练长度的部分也一样。</translation>
    </message>
    <message>
        <source>Shipped runs: %1</source>
        <translation>随附的运行：%1</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个 token</translation>
    </message>
    <message>
        <source>Tokens of the example: one test sequence of the run&apos;s task. Past the trained length is the point.</source>
        <translation>示例的 token 数：取自这个运行的任务的一条测试序列。要看的正是超出训练长度的部分。</translation>
    </message>
    <message>
        <source>Example &amp;length</source>
        <translation>示例长度(&amp;L)</translation>
    </message>
    <message>
        <source>La&amp;yer</source>
        <translation>层(&amp;Y)</translation>
    </message>
    <message>
        <source>&amp;Head</source>
        <translation>注意力头(&amp;H)</translation>
    </message>
    <message>
        <source>Seed of the example input (lab eval&apos;s test seed by default).</source>
        <translation>示例输入的种子（默认是 lab eval 的测试种子）。</translation>
    </message>
    <message>
        <source>&amp;Seed of the example</source>
        <translation>示例的种子(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>Running the model on %1 tokens, layer %2…</source>
        <translation>正在让模型读 %1 个 token（层 %2）……</translation>
    </message>
    <message>
        <source>Opened: layer %1, head %2, %3 tokens.</source>
        <translation>已打开：层 %1，头 %2，%3 个 token。</translation>
    </message>
    <message>
        <source>Cancelled; the main window is unchanged.</source>
        <translation>已取消；主窗口保持不变。</translation>
    </message>
    <message>
        <source>Open a run folder</source>
        <translation>打开运行文件夹</translation>
    </message>
    <message>
        <source>Cannot open the trained run</source>
        <translation>无法打开训练好的运行</translation>
    </message>
    <message>
        <source>%1: trained at length %2; %3 layers, %4 heads, %5 steps. Examples up to %6 tokens.</source>
        <translation>%1：训练长度 %2；%3 层，%4 个注意力头，%5 步。示例最多 %6 个 token。</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::TrainedRunProbe</name>
    <message>
        <source>%1/%2 seed %3</source>
        <translation>%1/%2 种子 %3</translation>
    </message>
    <message>
        <source>Choose a run folder: one written by lab train, lab sweep or the Lab window (config.json and model.safetensors).</source>
        <translation>请选择一个运行文件夹：由 lab train、lab sweep 或实验室窗口写出的文件夹（含 config.json 和 model.safetensors）。</translation>
    </message>
    <message>
        <source>Example length must be at least 2 (got %1).</source>
        <translation>示例长度至少为 2（当前为 %1）。</translation>
    </message>
    <message>
        <source>Example length must be at most %1 for this run: its learned table has %1 rows (got %2).</source>
        <translation>对这个运行，示例长度最多为 %1：它学到的位置表只有 %1 行（当前为 %2）。</translation>
    </message>
    <message>
        <source>Example length must be at most %1 for a model with %2 heads: the lab&apos;s memory budget of %3 GiB, as for --length of lab probe (got %4).</source>
        <translation>对有 %2 个注意力头的模型，示例长度最多为 %1：这是实验室 %3 GiB 内存预算的上限，与 lab probe 的 --length 相同（当前为 %4）。</translation>
    </message>
    <message>
        <source>Layer must be an integer from 0 to %1: the run has %2 layers (got %3).</source>
        <translation>层必须是 0 到 %1 之间的整数：这个运行共有 %2 层（当前为 %3）。</translation>
    </message>
    <message>
        <source>Head must be an integer from 0 to %1: the run has %2 heads (got %3).</source>
        <translation>注意力头必须是 0 到 %1 之间的整数：这个运行共有 %2 个头（当前为 %3）。</translation>
    </message>
    <message>
        <source>%1 must be %2 (got %3).</source>
        <translation>%1 必须是 %2（当前为 %3）。</translation>
    </message>
    <message>
        <source>The lab is not installed: posatlas-lab was found neither beside posatlas nor in its libexec folder, so a trained run cannot be probed.</source>
        <translation>没有安装实验室：在 posatlas 旁边和它的 libexec 文件夹里都找不到 posatlas-lab，因此无法探测训练好的运行。</translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>posatlas-lab stopped with status %1.</source>
        <translation>posatlas-lab 以状态 %1 退出。</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::VariantEditor</name>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Remove this method (two to four methods are compared)</source>
        <translation>移除此方法（比较 2 到 4 种方法）</translation>
    </message>
    <message>
        <source>The trained frequencies, for reference.</source>
        <translation>训练时的频率，供参考。</translation>
    </message>
    <message>
        <source>The model&apos;s own short/long factor lists; s = %1 / %2.</source>
        <translation>模型自带的短/长因子列表；s = %1 / %2。</translation>
    </message>
    <message>
        <source>Follow T</source>
        <translation>跟随 T</translation>
    </message>
    <message>
        <source>Let the factor follow the target context again: s = T / L</source>
        <translation>让因子重新跟随目标上下文：s = T / L</translation>
    </message>
    <message>
        <source>pinned</source>
        <translation>已固定</translation>
    </message>
    <message>
        <source>The factor stays as set (by hand, or the model&apos;s own) when the target context T changes</source>
        <translation>目标上下文 T 改变时，因子保持设定值（手动设定的，或模型自身的）</translation>
    </message>
    <message>
        <source>s = T / L: the factor that stretches the trained length L to the target context T. Setting it by hand pins it.</source>
        <translation>s = T / L：把训练长度 L 拉伸到目标上下文 T 所需的因子。手动设定后即固定。</translation>
    </message>
    <message>
        <source>follows T: s = T / L</source>
        <translation>跟随 T：s = T / L</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ViewJobs</name>
    <message>
        <source> · logit</source>
        <translation> · 注意力分数</translation>
    </message>
    <message>
        <source> · table %1</source>
        <translation> · 位置表 %1</translation>
    </message>
    <message>
        <source> · N %1</source>
        <translation> · N %1</translation>
    </message>
    <message>
        <source>h%1</source>
        <translation>h%1</translation>
    </message>
    <message>
        <source> · %1 of %2 heads</source>
        <translation> · %2 个头中的 %1 个</translation>
    </message>
    <message>
        <source>relative distance r (positions)</source>
        <translation>相对距离 r（位置）</translation>
    </message>
    <message>
        <source> · </source>
        <translation> · </translation>
    </message>
    <message>
        <source>%1 logit against distance · %2</source>
        <translation>%1 注意力分数随距离变化 · %2</translation>
    </message>
    <message>
        <source>logit</source>
        <translation>注意力分数 (logit)</translation>
    </message>
    <message>
        <source>%1 logit vs distance (query %2) · %3</source>
        <translation>%1 注意力分数随距离变化（查询 %2） · %3</translation>
    </message>
    <message>
        <source>no learned embedding at positions ≥ %1: distances from query %2</source>
        <translation>位置 ≥ %1 处没有可学习嵌入：与查询 %2 的距离</translation>
    </message>
    <message>
        <source>the last query&apos;s logits; distances up to N − 1 = %1: increase the sequence length to see further</source>
        <translation>最后一个查询的注意力分数；距离最大为 N − 1 = %1：增大序列长度可看到更远处</translation>
    </message>
    <message>
        <source>Logit against distance (last query) · </source>
        <translation>注意力分数随距离变化（最后一个查询） · </translation>
    </message>
    <message>
        <source>overlay: every curve is the logit of the last query against distance, in one unit</source>
        <translation>叠加：每条曲线都是最后一个查询的注意力分数随距离的变化，单位统一</translation>
    </message>
    <message>
        <source>The rotation diagram applies to RoPE: choose RoPE (or a RoPE preset) to see it.</source>
        <translation>旋转示意图仅适用于 RoPE：请选择 RoPE（或 RoPE 预设）查看。</translation>
    </message>
    <message>
        <source>RoPE rotations · θ %1 · d %2</source>
        <translation>RoPE 旋转 · θ %1 · d %2</translation>
    </message>
    <message>
        <source>The frequency spectrum applies to RoPE: choose RoPE (or a RoPE preset) to see it.</source>
        <translation>频率频谱仅适用于 RoPE：请选择 RoPE（或 RoPE 预设）查看。</translation>
    </message>
    <message>
        <source>RoPE frequency spectrum · θ %1 · d %2</source>
        <translation>RoPE 频率频谱 · θ %1 · d %2</translation>
    </message>
    <message>
        <source>no scaling</source>
        <translation>无缩放</translation>
    </message>
    <message>
        <source>%1 · factor %2</source>
        <translation>%1 · 因子 %2</translation>
    </message>
    <message>
        <source> · causal</source>
        <translation> · 因果</translation>
    </message>
    <message>
        <source>%1 · logit against distance · N %2</source>
        <translation>%1 · 注意力分数 (logit) 随距离变化 · N %2</translation>
    </message>
    <message>
        <source>the last query&apos;s logits, each method with its own parameters</source>
        <translation>最后一个查询的注意力分数 (logit)，各方法用自己的参数</translation>
    </message>
    <message>
        <source> (+%1 more)</source>
        <translation>（另有 %1 个）</translation>
    </message>
    <message>
        <source>each method&apos;s own matrix</source>
        <translation>各方法自己的矩阵</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 · %2 (its default)</source>
        <translation>%1 · %2（其默认矩阵）</translation>
    </message>
    <message>
        <source> · %1 only (not compared)</source>
        <translation> · 仅 %1（不参与比较）</translation>
    </message>
    <message>
        <source> · trained %1 from %2</source>
        <translation> · 训练所得 %1（来自 %2）</translation>
    </message>
    <message>
        <source> · trained table %1</source>
        <translation> · 训练所得位置表 %1</translation>
    </message>
    <message>
        <source> · q, k from %1</source>
        <translation> · q、k 来自 %1</translation>
    </message>
    <message>
        <source>each pixel: the cell at its block&apos;s centre, not a mean (random content is not averaged at this length)</source>
        <translation>每个像素：其块中心处的单元格，而非均值（在此长度下随机内容不做平均）</translation>
    </message>
    <message>
        <source>each pixel: the cell at its block&apos;s centre, not a mean (not linear in the cells); zoom in for exact cells</source>
        <translation>每个像素：其块中心处的单元格，而非均值（该量对单元格非线性）；放大可看到精确单元格</translation>
    </message>
    <message>
        <source>exact: one cell per pixel in this zoomed window</source>
        <translation>精确：在此放大窗口中每个像素对应一个单元格</translation>
    </message>
    <message>
        <source>point sample: one cell per pixel (aliases)</source>
        <translation>点采样：每个像素取一个单元格（会混叠）</translation>
    </message>
    <message>
        <source>block mean: every cell counted</source>
        <translation>块均值：计入每个单元格</translation>
    </message>
    <message>
        <source>no point sample beside it: this picture has no block means</source>
        <translation>不显示旁边的点采样：此图没有块均值</translation>
    </message>
    <message>
        <source> · trained decoder bias from %1</source>
        <translation> · 训练所得解码器偏置（来自 %1）</translation>
    </message>
    <message>
        <source> · trained encoder bias from %1</source>
        <translation> · 训练所得编码器偏置（来自 %1）</translation>
    </message>
    <message>
        <source> · trained %1 from files</source>
        <translation> · 来自文件的训练所得%1</translation>
    </message>
    <message>
        <source>generated content: distances ≥ %1 sampled, at least 1 in %2</source>
        <translation>逐位置生成的内容：距离 ≥ %1 处为抽样，每 %2 个至少取 1 个</translation>
    </message>
    <message>
        <source>each pixel: the cell at its block&apos;s centre, not a mean (averaged only for position-independent content); zoom in for exact cells</source>
        <translation>每个像素：其块中心处的单元格，而非均值（仅对与位置无关的内容求块均值）；放大可看到精确单元格</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the items of a list</comment>
        <translation>、</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <source>the second sentence is not a permutation of the first: rows not linked</source>
        <translation>第二个句子不是第一个句子的置换：各行没有相连</translation>
    </message>
    <message>
        <source>%1 %2 → %3</source>
        <comment>a word, its position in the sentence and in the permutation</comment>
        <translation>%1 %2 → %3</translation>
    </message>
    <message>
        <source>the same order: every word in its place</source>
        <translation>顺序相同：每个词都在原位</translation>
    </message>
    <message>
        <source>moved: %1</source>
        <translation>移动：%1</translation>
    </message>
    <message>
        <source> · sliding window of %1 keys</source>
        <translation> · 滑动窗口，看 %1 个键</translation>
    </message>
    <message>
        <source> · chunks of %1 positions</source>
        <translation> · 分块，每块 %1 个位置</translation>
    </message>
    <message>
        <source> · attention temperature</source>
        <translation> · 注意力温度</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::ViewTimings</name>
    <message>
        <source>%1: compute %2 ms · paint %3 ms</source>
        <translation>%1：计算 %2 毫秒 · 绘制 %3 毫秒</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::WeightsDialog</name>
    <message>
        <source>Open Weights: %1</source>
        <translation>打开权重：%1</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Position table</source>
        <translation>位置表</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Not a floating-point matrix: cannot be a position table</source>
        <translation>不是浮点矩阵：不能作为位置表</translation>
    </message>
    <message>
        <source>Select a tensor of two dimensions (positions × dimensions).</source>
        <translation>请选择一个二维张量（位置 × 维度）。</translation>
    </message>
    <message>
        <source>Choose the tensor that holds the position table: a learned table (positions × dimensions), T5&apos;s relative_attention_bias (buckets × heads) or one of a method&apos;s own tables (Use as). Known position tensors are marked; only the header has been read.</source>
        <translation>选择存放位置表的张量：可学习的位置表（位置 × 维度）、T5 的 relative_attention_bias（桶 × 头），或某个方法自己的表（见“用作”）。已知的位置张量已标出；只读取了文件头。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Use as:</source>
        <translation>用作：</translation>
    </message>
    <message>
        <source>Use as Method Table</source>
        <translation>用作方法的表</translation>
    </message>
    <message>
        <source>%1 will be %2 instead of the seeded stand-in; the sizes the table fixes follow it (one undo step).</source>
        <translation>%1 将作为 %2，替换随机种子生成的替身；表所确定的尺寸随之改变（一步撤销）。</translation>
    </message>
</context>
<context>
    <name>posatlas::ui::math::Formula</name>
    <message>
        <source>nesting deeper than %1 levels</source>
        <translation>嵌套超过 %1 层</translation>
    </message>
    <message>
        <source>a backslash at the end of the formula</source>
        <translation>公式末尾有一个反斜杠</translation>
    </message>
    <message>
        <source>&apos;{&apos; is never closed by &apos;}&apos;</source>
        <translation>&apos;{&apos; 没有对应的 &apos;}&apos;</translation>
    </message>
    <message>
        <source>&apos;[&apos; is never closed by &apos;]&apos;</source>
        <translation>&apos;[&apos; 没有对应的 &apos;]&apos;</translation>
    </message>
    <message>
        <source>\begin without \end</source>
        <translation>\begin 没有对应的 \end</translation>
    </message>
    <message>
        <source>\left without \right</source>
        <translation>\left 没有对应的 \right</translation>
    </message>
    <message>
        <source>&apos;}&apos; without an opening &apos;{&apos;</source>
        <translation>&apos;}&apos; 没有对应的 &apos;{&apos;</translation>
    </message>
    <message>
        <source>&apos;&amp;&apos; outside a matrix, cases or aligned environment</source>
        <translation>&apos;&amp;&apos; 只能用在 matrix、cases 或 aligned 环境中</translation>
    </message>
    <message>
        <source>&apos;\\&apos; (new row) outside a matrix, cases or aligned environment</source>
        <translation>&apos;\\&apos;（换行）只能用在 matrix、cases 或 aligned 环境中</translation>
    </message>
    <message>
        <source>\end without \begin</source>
        <translation>\end 没有对应的 \begin</translation>
    </message>
    <message>
        <source>\right without \left</source>
        <translation>\right 没有对应的 \left</translation>
    </message>
    <message>
        <source>\middle outside \left ... \right</source>
        <translation>\middle 只能用在 \left ... \right 之间</translation>
    </message>
    <message>
        <source>\%1 must follow an operator such as \sum</source>
        <translation>\%1 必须紧跟在 \sum 等运算符之后</translation>
    </message>
    <message>
        <source>a prime after a superscript; write x&apos;^2 instead of x^2&apos;</source>
        <translation>上标之后不能再加撇号；请写 x&apos;^2 而不是 x^2&apos;</translation>
    </message>
    <message>
        <source>a superscript after &apos;^&apos;</source>
        <translation>&apos;^&apos; 之后的上标</translation>
    </message>
    <message>
        <source>double superscript; use braces, e.g. {x^a}^b</source>
        <translation>重复的上标；请用花括号，例如 {x^a}^b</translation>
    </message>
    <message>
        <source>double subscript; use braces, e.g. {x_a}_b</source>
        <translation>重复的下标；请用花括号，例如 {x_a}_b</translation>
    </message>
    <message>
        <source>a subscript after &apos;_&apos;</source>
        <translation>&apos;_&apos; 之后的下标</translation>
    </message>
    <message>
        <source>missing %1</source>
        <translation>缺少%1</translation>
    </message>
    <message>
        <source>only letters are allowed in %1</source>
        <translation>%1 中只允许字母</translation>
    </message>
    <message>
        <source>missing {text} after \text</source>
        <translation>\text 之后缺少 {文字}</translation>
    </message>
    <message>
        <source>math inside \text is not supported; close the text first</source>
        <translation>不支持在 \text 中嵌入公式；请先结束文字</translation>
    </message>
    <message>
        <source>\%1 is not supported inside \text</source>
        <translation>\text 中不支持 \%1</translation>
    </message>
    <message>
        <source>invalid control character</source>
        <translation>无效的控制字符</translation>
    </message>
    <message>
        <source>%1 must be followed by a delimiter such as ( or \{</source>
        <translation>%1 之后必须是定界符，例如 ( 或 \{</translation>
    </message>
    <message>
        <source>&apos;$&apos; inside a formula; write the formula without $ delimiters</source>
        <translation>公式中出现 &apos;$&apos;；请去掉 $ 定界符书写公式</translation>
    </message>
    <message>
        <source>&apos;#&apos; is not allowed in a formula; write \# for the sign</source>
        <translation>公式中不允许 &apos;#&apos;；该符号请写作 \#</translation>
    </message>
    <message>
        <source>invalid character</source>
        <translation>无效字符</translation>
    </message>
    <message>
        <source>unknown command \%1</source>
        <translation>未知命令 \%1</translation>
    </message>
    <message>
        <source>{name} after \operatorname</source>
        <translation>\operatorname 之后的 {名称}</translation>
    </message>
    <message>
        <source>empty \operatorname</source>
        <translation>\operatorname 为空</translation>
    </message>
    <message>
        <source>the first argument of \%1</source>
        <translation>\%1 的第一个参数</translation>
    </message>
    <message>
        <source>the second argument of \%1</source>
        <translation>\%1 的第二个参数</translation>
    </message>
    <message>
        <source>the argument of \sqrt</source>
        <translation>\sqrt 的参数</translation>
    </message>
    <message>
        <source>the argument of \%1</source>
        <translation>\%1 的参数</translation>
    </message>
    <message>
        <source>{letters} after \%1</source>
        <translation>\%1 之后的 {字母}</translation>
    </message>
    <message>
        <source>\%1 takes capital letters A-Z</source>
        <translation>\%1 只接受大写字母 A-Z</translation>
    </message>
    <message>
        <source>{environment} after \begin</source>
        <translation>\begin 之后的 {环境名}</translation>
    </message>
    <message>
        <source>unknown environment &apos;%1&apos; (supported: %2)</source>
        <translation>未知环境 &apos;%1&apos;（支持：%2）</translation>
    </message>
    <message>
        <source>more than %1 matrix cells</source>
        <translation>矩阵单元格超过 %1 个</translation>
    </message>
    <message>
        <source>{environment} after \end</source>
        <translation>\end 之后的 {环境名}</translation>
    </message>
    <message>
        <source>\begin{%1} is ended by \end{%2}</source>
        <translation>\begin{%1} 被 \end{%2} 结束</translation>
    </message>
    <message>
        <source>the formula is longer than %1 characters</source>
        <translation>公式超过 %1 个字符</translation>
    </message>
    <message>
        <source>the formula is empty</source>
        <translation>公式为空</translation>
    </message>
    <message>
        <source>point size %1 is outside 0 &lt; size &lt;= 1000</source>
        <translation>字号 %1 超出范围 0 &lt; 字号 &lt;= 1000</translation>
    </message>
    <message>
        <source>column %1: %2</source>
        <translation>第 %1 列：%2</translation>
    </message>
    <message>
        <source>out of memory</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <source>internal error</source>
        <translation>内部错误</translation>
    </message>
    <message>
        <source>the image of %1 x %2 pixels could not be allocated</source>
        <translation>无法分配 %1 x %2 像素的图像</translation>
    </message>
</context>
</TS>

package dev.taskagent.taskfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.taskfile.Taskfile.Defer;
import dev.taskagent.taskfile.Taskfile.LiteralValue;
import dev.taskagent.taskfile.Taskfile.Shell;
import dev.taskagent.taskfile.Taskfile.ShellValue;
import dev.taskagent.taskfile.Taskfile.TaskCall;
import dev.taskagent.taskfile.Taskfile.TaskDef;
import java.util.List;
import java.util.Random;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TaskfileReaderTest {

    private static Taskfile read(String text) throws TaskfileException {
        return TaskfileReader.read(text);
    }

    private static TaskfileException failure(String text) {
        try {
            TaskfileReader.read(text);
        } catch (TaskfileException e) {
            return e;
        }
        throw new AssertionError("the Taskfile was accepted:\n" + text);
    }

    @Test
    void readsTheThreeFormsOfATask() throws TaskfileException {
        Taskfile taskfile = read("""
                version: '3'
                tasks:
                  short: echo one
                  single:
                    cmd: echo alone
                  listed:
                    - echo two
                    - echo three
                  full:
                    desc: Does it all
                    summary: |
                      Longer text
                    cmds:
                      - echo four
                      - cmd: echo five
                        silent: true
                        ignore_error: true
                      - task: short
                        vars: {A: 1}
                      - defer: echo six
                      - defer: {task: listed}
                """);
        assertThat(taskfile.tasks()).containsOnlyKeys("short", "listed", "full", "single");
        assertThat(taskfile.tasks().get("short").cmds()).hasSize(1);
        assertThat(taskfile.tasks().get("single").cmds())
                .singleElement()
                .isInstanceOfSatisfying(
                        Shell.class,
                        shell -> assertThat(shell.command().source()).isEqualTo("echo alone"));
        assertThat(taskfile.tasks().get("listed").cmds()).hasSize(2);
        TaskDef full = taskfile.tasks().get("full");
        assertThat(full.desc().source()).isEqualTo("Does it all");
        assertThat(full.summary()).isEqualTo("Longer text\n");
        assertThat(full.cmds()).hasSize(5);
        assertThat(full.cmds().get(1)).isInstanceOfSatisfying(Shell.class, shell -> {
            assertThat(shell.silent()).isTrue();
            assertThat(shell.ignoreError()).isTrue();
        });
        assertThat(full.cmds().get(2)).isInstanceOf(TaskCall.class);
        assertThat(full.cmds().get(3)).isInstanceOfSatisfying(Defer.class, defer -> assertThat(defer.command())
                .isInstanceOf(Shell.class));
        assertThat(full.cmds().get(4)).isInstanceOfSatisfying(Defer.class, defer -> assertThat(defer.command())
                .isInstanceOf(TaskCall.class));
    }

    @Test
    void readsTypedStaticAndShellVariables() throws TaskfileException {
        Taskfile taskfile = read("""
                version: 3
                vars:
                  TEXT: hello
                  NUMBER: 42
                  RATIO: 1.5
                  FLAG: true
                  LIST: [a, 2]
                  NOTHING:
                  DYNAMIC: {sh: echo hi}
                tasks: {}
                """);
        assertThat(taskfile.vars())
                .extracting(Taskfile.VarDef::name)
                .containsExactly("TEXT", "NUMBER", "RATIO", "FLAG", "LIST", "NOTHING", "DYNAMIC");
        assertThat(taskfile.vars().get(1).value()).isEqualTo(new LiteralValue(42L));
        assertThat(taskfile.vars().get(2).value()).isEqualTo(new LiteralValue(1.5));
        assertThat(taskfile.vars().get(3).value()).isEqualTo(new LiteralValue(true));
        assertThat(taskfile.vars().get(4).value()).isEqualTo(new LiteralValue(List.of("a", 2L)));
        assertThat(taskfile.vars().get(5).value()).isEqualTo(new LiteralValue(null));
        assertThat(taskfile.vars().get(6).value()).isInstanceOf(ShellValue.class);
    }

    @Test
    void malformedYamlIsReportedWithLineAndColumn() {
        TaskfileException error = failure("version: '3'\ntasks:\n  a: [echo\n  b: echo\n");
        assertThat(error.line()).isEqualTo(4);
        assertThat(error.column()).isEqualTo(4);
        assertThat(error.getMessage())
                .isEqualTo("line 4, column 4: invalid YAML: expected ',' or ']', but got : (while parsing a flow"
                        + " sequence)");
    }

    @Test
    void tabIndentationIsReportedWithLineAndColumn() {
        TaskfileException error = failure("version: '3'\ntasks:\n\tbuild: echo\n");
        assertThat(error.line()).isEqualTo(3);
        assertThat(error.column()).isEqualTo(1);
    }

    @Test
    void duplicateKeysAreRefusedWithBothPlaces() {
        TaskfileException error = failure("""
                version: '3'
                tasks:
                  build: echo one
                  test: echo two
                  build: echo three
                """);
        assertThat(error.getMessage()).isEqualTo("line 5, column 3: duplicate key 'build' (first at line 3, column 3)");
    }

    @Test
    void duplicateKeysInsideATaskAreRefusedToo() {
        assertThat(failure("version: '3'\ntasks:\n  a:\n    desc: x\n    desc: y\n    cmds: [echo]\n")
                        .getMessage())
                .startsWith("line 5, column 5: duplicate key 'desc'");
    }

    @Test
    void versionIsRequiredAndMustBeThree() {
        assertThat(failure("tasks:\n  a: echo\n").getMessage()).contains("'version' is missing");
        assertThat(failure("version: '2'\ntasks: {}\n").getMessage())
                .isEqualTo("line 1, column 10: version '2' is not supported; this reader implements Taskfile"
                        + " version 3: write version: '3'");
        assertThat(failure("").getMessage()).contains("the file is empty");
        assertThat(failure("- a\n- b\n").getMessage()).contains("a Taskfile is a mapping");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "includes at the top|includes: {other: ./other.yml}|1|1|'includes' (tasks from other Taskfiles) is not supported",
                "output mode|output: prefixed|1|1|'output' (grouped or prefixed output) is not supported",
                "top-level silent|silent: true|1|1|'silent' here is not supported",
                "for loop|x: {cmds: [{for: [a, b], cmd: echo}]}|1|13|'for' (loops) is not supported",
                "sources|x: {sources: [a.txt], cmds: [echo]}|1|5|'sources' (up-to-date checks by file fingerprints) is not supported",
                "generates|x: {generates: [a.txt], cmds: [echo]}|1|5|'generates' (up-to-date checks by file fingerprints) is not supported",
                "platforms|x: {platforms: [linux], cmds: [echo]}|1|5|'platforms' is not supported",
                "prompt|x: {prompt: Sure?, cmds: [echo]}|1|5|'prompt' (asking for confirmation) is not supported",
                "interactive|x: {interactive: true, cmds: [echo]}|1|5|'interactive' is not supported",
                "method|x: {method: checksum, cmds: [echo]}|1|5|'method' (fingerprinting of sources) is not supported",
                "run once|x: {run: once, cmds: [echo]}|1|5|'run' (run once or when changed) is not supported",
                "aliases|x: {aliases: [y], cmds: [echo]}|1|5|'aliases' is not supported",
                "task dotenv|x: {dotenv: [.env], cmds: [echo]}|1|5|'dotenv' here is not supported",
                "ref vars|x: {vars: {A: {ref: .B}}, cmds: [echo]}|1|16|'ref' (variables by reference) is not supported",
                "map vars|x: {vars: {A: {map: {k: v}}}, cmds: [echo]}|1|16|'map' (map variables) is not supported",
                "enum|x: {requires: {vars: [{name: A, enum: [a]}]}, cmds: [echo]}|1|33|'enum' (allowed values of a required variable) is not supported",
                "platforms on a command|x: {cmds: [{cmd: echo, platforms: [linux]}]}|1|24|'platforms' is not supported",
                "unknown task key|x: {descr: typo, cmds: [echo]}|1|5|unknown key 'descr' in task 'x'; supported keys: cmd, cmds, deps, desc",
                "unknown command key|x: {cmds: [{command: echo}]}|1|13|unknown key 'command' in a command",
                "unknown template function|x: {cmds: ['echo {{upper .A}}']}|1|12|unknown template function 'upper' (supported: default, eq, OS, ARCH, join, trim)",
                "range|x: {cmds: ['{{range .L}}x{{end}}']}|1|12|'range' is not supported in templates",
                "null in a list variable|x: {vars: {L: [a, ~]}, cmds: [echo]}|1|19|a list variable holds an empty (null) entry",
                "function in a desc|x: {desc: '{{upper .A}}', cmds: [echo]}|1|11|unknown template function 'upper'",
                "wildcard name|'start:*': {cmds: [echo]}|1|1|wildcard task names ('start:*') are not supported",
                "special var|x: {vars: {CLI_ARGS: x}, cmds: [echo]}|1|12|'CLI_ARGS' is a special variable set by the runner",
                "both cmd and cmds|x: {cmd: echo, cmds: [echo]}|1|5|task 'x' has both 'cmd' and 'cmds'",
                "bad flag|x: {silent: yes please, cmds: [echo]}|1|13|'silent' must be true or false",
                "unknown call|x: {cmds: [{task: nope}]}|1|12|task 'x' calls 'nope', which is not defined",
                "unknown dep|x: {deps: [nope], cmds: [echo]}|1|12|task 'x' calls 'nope', which is not defined"
            })
    void refusesFeaturesOutsideTheSubsetByNameWithTheirPlace(
            String feature, String yaml, int line, int column, String problem) {
        boolean isTopLevel = !yaml.startsWith("x:") && !yaml.startsWith("'start");
        String text = isTopLevel ? "version: '3'\n" + yaml + "\ntasks: {}\n" : "version: '3'\ntasks:\n  " + yaml + "\n";
        int expectedLine = isTopLevel ? line + 1 : line + 2;
        int expectedColumn = isTopLevel ? column : column + 2;
        TaskfileException error = failure(text);
        assertThat(error.getMessage()).as(feature).contains(problem);
        assertThat(error.line()).as(feature + ": " + error.getMessage()).isEqualTo(expectedLine);
        assertThat(error.column()).as(feature + ": " + error.getMessage()).isEqualTo(expectedColumn);
    }

    @Test
    void anchorsAndMergeKeysWorkAsInGoTask() throws TaskfileException {
        Taskfile taskfile = read("""
                version: '3'
                tasks:
                  a: &common
                    desc: shared
                    silent: true
                    cmds: [echo a]
                  b:
                    <<: *common
                    desc: own
                """);
        TaskDef b = taskfile.tasks().get("b");
        assertThat(b.desc().source()).isEqualTo("own");
        assertThat(b.silent()).isTrue();
        assertThat(b.cmds()).hasSize(1);
    }

    @Test
    void deeplyNestedListsAreRefusedWithLineAndColumnInsteadOfOverflowingTheStack() {
        String brackets = "[".repeat(5000) + "]".repeat(5000);
        TaskfileException error = failure("version: '3'\ntasks:\n  a: " + brackets + "\n");
        // the root mapping and 'tasks' are two levels; the 49th '[' is the 51st
        assertThat(error.getMessage())
                .isEqualTo("line 3, column 54: lists and mappings nest more than 50 levels deep here; a Taskfile"
                        + " needs a handful: flatten the structure");
    }

    @Test
    void deeplyNestedMappingsAreRefusedToo() {
        String mappings = "{a: ".repeat(3000) + "}".repeat(3000);
        TaskfileException error = failure("version: '3'\nvars:\n  A: " + mappings + "\n");
        assertThat(error.line()).isEqualTo(3);
        assertThat(error.getMessage()).contains("nest more than 50 levels deep");
    }

    @Test
    void fiftyLevelsOfNestingAreStillReadAsYaml() {
        // 2 levels (root, vars) + 48 lists: the YAML is accepted, and the reader names what is wrong with it
        String brackets = "[".repeat(48) + "]".repeat(48);
        TaskfileException error = failure("version: '3'\nvars:\n  A: " + brackets + "\n");
        assertThat(error.getMessage()).contains("list variables may only hold plain values");
    }

    @Test
    void whateverAMangledTaskfileHoldsTheReaderAnswersWithATaskfileOrALineAndColumn() {
        // A seeded smoke check of the property; the cases it found are pinned by the tests above.
        String sample = """
                version: '3'
                dotenv: ['.env', '{{.ENV}}/.env']
                vars:
                  A: &x hello
                  L: [a, 1, true]
                  S: {sh: echo hi}
                env:
                  E: '{{.A | default "y"}}'
                tasks:
                  build: &b
                    desc: 'Build {{if eq .A "x"}}({{trim .A}}){{else}}no{{end}}'
                    deps: [test, {task: lint, vars: {X: 1}}]
                    vars: {W: '{{.W | default "z"}}'}
                    cmds:
                      - echo {{.CLI_ARGS}}
                      - {cmd: 'echo "{{join " " .CLI_ARGS_LIST}}"', silent: true}
                      - {task: lint, vars: {Y: *x}}
                      - defer: {task: lint}
                    preconditions: [{sh: 'true', msg: m}]
                    requires: {vars: [A, {name: B}]}
                    status: ['false']
                    dir: sub
                  test: echo test
                  lint: [echo a, echo b]
                  other:
                    <<: *b
                    desc: other
                """;
        String alphabet = "{}[]:,'\"&*!|>-#%@`?~\n \t.()$\\a0";
        Random random = new Random(20_260_501L);
        for (int i = 0; i < 2_000; i++) {
            StringBuilder text = new StringBuilder(sample);
            for (int edits = 1 + random.nextInt(4); edits > 0; edits--) {
                int at = random.nextInt(text.length());
                char c = alphabet.charAt(random.nextInt(alphabet.length()));
                switch (random.nextInt(3)) {
                    case 0 -> text.deleteCharAt(at);
                    case 1 -> text.insert(at, c);
                    default -> text.setCharAt(at, c);
                }
            }
            String mangled = text.toString();
            try {
                read(mangled);
            } catch (TaskfileException e) {
                assertThat(e.line()).as(mangled).isPositive();
            } catch (RuntimeException | StackOverflowError e) {
                throw new AssertionError("the reader threw " + e + " for:\n" + mangled, e);
            }
        }
    }

    @Test
    void aTaskfileWithoutTasksIsValid() throws TaskfileException {
        assertThat(read("version: '3'\n").tasks()).isEmpty();
    }

    @Test
    void multipleDocumentsAreRefused() {
        ThrowingCallable reading = () -> read("version: '3'\n---\nversion: '3'\n");
        assertThatThrownBy(reading).isInstanceOf(TaskfileException.class).hasMessageContaining("invalid YAML");
    }
}

package dev.taskagent.taskfile;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.taskfile.UserTasks.Run;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** run_user_task with real bash processes. */
class RunUserTaskTest {
    @TempDir
    Path root;

    private UserTasks tasks(String taskfile) {
        return UserTasks.create(root, taskfile);
    }

    @Test
    void runsATaskAndReturnsItsOutputAndExitCode() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  greet:
                    desc: Says hello
                    cmds:
                      - echo "hello from $PWD"
                """);
        Run run = tasks.run("greet");
        assertThat(run.isError()).as(run.text()).isFalse();
        assertThat(run.exitCode()).isZero();
        assertThat(run.stdout()).isEqualTo("hello from " + realRoot() + "\n");
        assertThat(run.stderr()).isEqualTo("task: [greet] echo \"hello from $PWD\"\n");
        assertThat(run.message()).isEqualTo("Task 'greet' succeeded.");
        assertThat(run.isTimedOut()).isFalse();
        assertThat(run.isTruncated()).isFalse();
        assertThat(run.json().get("duration_ms").isNumber()).isTrue();
    }

    @Test
    void aFailingCommandReportsItsRealExitCodeAndStopsTheTask() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  fail:
                    silent: true
                    cmds:
                      - echo before
                      - exit 3
                      - echo never
                """);
        Run run = tasks.run("fail");
        assertThat(run.isError()).isTrue();
        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.stdout()).isEqualTo("before\n");
        assertThat(run.message()).isEqualTo("Task 'fail' failed: the command `exit 3` exited with code 3.");
    }

    @Test
    void eachCommandRunsWithBashErrexit() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  strict:
                    silent: true
                    cmds:
                      - |
                        false
                        echo not reached
                """);
        Run run = tasks.run("strict");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.stdout()).isEmpty();
    }

    @Test
    void keepsStdoutAndStderrApart() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  both:
                    silent: true
                    cmds:
                      - echo to-out; echo to-err >&2; echo more-out
                """);
        Run run = tasks.run("both");
        assertThat(run.stdout()).isEqualTo("to-out\nmore-out\n");
        assertThat(run.stderr()).isEqualTo("to-err\n");
    }

    @Test
    void hostileArgumentsArriveLiterallyAndAreNeverInterpretedByAShell() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  args:
                    silent: true
                    cmds:
                      - printf '[%s]\\n' {{.CLI_ARGS}}
                """);
        Run run =
                tasks.run("args", "$(touch pwned)", "a;b", "it's", "", "`touch pwned2`", "*", "$HOME", "a b", "\"q\"");
        assertThat(run.isError()).as(run.text()).isFalse();
        assertThat(run.stdout())
                .isEqualTo("[$(touch pwned)]\n[a;b]\n[it's]\n[]\n[`touch pwned2`]\n[*]\n[$HOME]\n[a b]\n[\"q\"]\n");
        assertThat(root.resolve("pwned")).doesNotExist();
        assertThat(root.resolve("pwned2")).doesNotExist();
        assertThat(run.json().get("args")).hasSize(9);
    }

    @Test
    void aSingleArgumentStringIsSplitLikeAShellWithoutExpansion() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  args:
                    silent: true
                    cmds: ["printf '[%s]\\\\n' {{.CLI_ARGS}}"]
                """);
        Run run = tasks.runJson("{\"task_name\":\"args\",\"args\":\"-v 'two words' \\\"it's\\\" $(touch pwned)\"}");
        assertThat(run.stdout()).isEqualTo("[-v]\n[two words]\n[it's]\n[$(touch]\n[pwned)]\n");
        assertThat(root.resolve("pwned")).doesNotExist();
    }

    @Test
    void numbersAndBooleansInArgsArriveAsTheirJsonText() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  args:
                    silent: true
                    cmds:
                      - printf '[%s]\\n' {{.CLI_ARGS}}
                """);
        Run run = tasks.runJson("{\"task_name\":\"args\",\"args\":[\"-n\",3,-2,1.5,true,false]}");
        assertThat(run.isError()).as(run.text()).isFalse();
        assertThat(run.stdout()).isEqualTo("[-n]\n[3]\n[-2]\n[1.5]\n[true]\n[false]\n");
        Run single = tasks.runJson("{\"task_name\":\"args\",\"args\":7}");
        assertThat(single.stdout()).isEqualTo("[7]\n");
    }

    @Test
    void cliArgsListHoldsTheRawArguments() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  list:
                    silent: true
                    cmds: ['echo "{{join "," .CLI_ARGS_LIST}} / {{.CLI_ARGS_LIST}} / {{.CLI_ARGS}}"']
                """);
        assertThat(tasks.run("list", "a", "b c").stdout()).isEqualTo("a,b c / [a b c] / 'a' 'b c'\n");
    }

    @Test
    void badArgumentsAreRejectedWithTheSharedMessagesBeforeAnythingRuns() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  touch:
                    cmds: [touch ran]
                """);
        Run nul = tasks.run("touch", "a\0b");
        assertThat(nul.isError()).isTrue();
        assertThat(nul.text())
                .isEqualTo("Argument 'args' contains a NUL character (U+0000) at index 1, which cannot be stored."
                        + " Remove it and send the text again.");
        Run many = tasks.run(
                "touch",
                java.util.Collections.nCopies(RunUserTaskTool.MAX_ARGS + 1, "a").toArray(String[]::new));
        assertThat(many.text()).isEqualTo("Too many arguments: 101; at most 100 are accepted.");
        Run longOne = tasks.run("touch", "x".repeat(RunUserTaskTool.MAX_ARG_LENGTH + 1));
        assertThat(longOne.text())
                .isEqualTo("Argument 1 in 'args' is 8193 characters long; the limit is 8192. Pass a file name"
                        + " instead of its content.");
        Run tooLongTogether = tasks.run(
                "touch",
                java.util.Collections.nCopies(9, "x".repeat(RunUserTaskTool.MAX_ARG_LENGTH))
                        .toArray(String[]::new));
        assertThat(tooLongTogether.text())
                .isEqualTo("The arguments in 'args' are 73728 characters long together; the limit is 65536. Pass"
                        + " file names instead of contents.");
        Run unclosed = tasks.runJson("{\"task_name\":\"touch\",\"args\":\"it's\"}");
        assertThat(unclosed.text()).startsWith("Argument 'args' could not be split into words: a single quote");
        Run object = tasks.runJson("{\"task_name\":\"touch\",\"args\":[{\"a\":1}]}");
        assertThat(object.text()).startsWith("Argument 'args' must be an array of strings");
        Run nested = tasks.runJson("{\"task_name\":\"touch\",\"args\":[\"-n\",[3]]}");
        assertThat(nested.text()).isEqualTo("Argument 'args' must be an array of strings; it holds the array [3].");
        Run blankName = tasks.runJson("{\"task_name\":\" \"}");
        assertThat(blankName.text()).isEqualTo("Argument 'task_name' must not be blank; send a name.");
        assertThat(root.resolve("ran")).doesNotExist();
    }

    @Test
    void depsRunBeforeTheTaskAndInParallel() {
        // Each dep waits (up to 10 s) for the other's file: run one after the other, they would time out.
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  main:
                    silent: true
                    deps: [left, right]
                    cmds:
                      - test -f left.done && test -f right.done && echo main ran after both
                  left:
                    silent: true
                    cmds:
                      - touch left.started
                      - for i in $(seq 200); do test -f right.started && break; sleep 0.05; done; test -f right.started
                      - touch left.done
                  right:
                    silent: true
                    cmds:
                      - touch right.started
                      - for i in $(seq 200); do test -f left.started && break; sleep 0.05; done; test -f left.started
                      - touch right.done
                """);
        Run run = tasks.run("main");
        assertThat(run.isError()).as(run.text()).isFalse();
        assertThat(run.stdout()).isEqualTo("main ran after both\n");
    }

    @Test
    void aFailingDepStopsTheTask() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  main:
                    deps: [{task: broken, vars: {CODE: 5}}]
                    cmds: [touch main.ran]
                  broken:
                    cmds: ['exit {{.CODE}}']
                """);
        Run run = tasks.run("main");
        assertThat(run.isError()).isTrue();
        assertThat(run.exitCode()).isEqualTo(5);
        assertThat(run.message()).isEqualTo("Task 'broken' failed: the command `exit 5` exited with code 5.");
        assertThat(root.resolve("main.ran")).doesNotExist();
    }

    @Test
    void internalTasksAreRefusedDirectlyButRunFromAnotherTask() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  public:
                    desc: Calls the helper
                    silent: true
                    cmds:
                      - task: helper
                        vars: {WHO: public}
                  helper:
                    internal: true
                    silent: true
                    cmds: ['echo "helper called by {{.WHO}}"']
                """);
        Run direct = tasks.run("helper");
        assertThat(direct.isError()).isTrue();
        assertThat(direct.text())
                .isEqualTo("Task 'helper' is internal: only other tasks can call it. Available tasks: public.");
        Run indirect = tasks.run("public");
        assertThat(indirect.isError()).as(indirect.text()).isFalse();
        assertThat(indirect.stdout()).isEqualTo("helper called by public\n");
    }

    @Test
    void anUnknownTaskIsASoftErrorListingTheAvailableTasks() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  build: {desc: Builds, cmds: [echo]}
                  test: {cmds: [echo]}
                  secret: {internal: true, cmds: [echo]}
                """);
        Run run = tasks.run("deploy");
        assertThat(run.isError()).isTrue();
        assertThat(run.text())
                .isEqualTo("Unknown task 'deploy'. Available tasks: build, test. Call list_user_tasks to see what"
                        + " each does.");
    }

    @Test
    void aMissingTaskNameIsASoftError() {
        UserTasks tasks = tasks("version: '3'\ntasks:\n  a: echo\n");
        Run run = tasks.runJson("{}");
        assertThat(run.isError()).isTrue();
        assertThat(run.text()).contains("task_name");
    }

    @Test
    void defersRunAtTheEndInReverseOrderEvenWhenTheTaskFails() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  cleanup:
                    silent: true
                    cmds:
                      - echo start
                      - defer: echo first deferred
                      - defer: {task: report}
                      - defer: 'echo "exit code seen: {{.EXIT_CODE}}"'
                      - exit 4
                      - defer: echo never registered
                  report:
                    silent: true
                    cmds: [echo report task]
                """);
        Run run = tasks.run("cleanup");
        assertThat(run.exitCode()).isEqualTo(4);
        assertThat(run.stdout()).isEqualTo("start\nexit code seen: 4\nreport task\nfirst deferred\n");
    }

    @Test
    void ignoreErrorLetsTheTaskGoOn() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  lenient:
                    silent: true
                    cmds:
                      - cmd: exit 2
                        ignore_error: true
                      - echo went on
                  wholly:
                    silent: true
                    ignore_error: true
                    cmds: [exit 7, echo also went on]
                """);
        assertThat(tasks.run("lenient").stdout()).isEqualTo("went on\n");
        Run wholly = tasks.run("wholly");
        assertThat(wholly.isError()).isFalse();
        assertThat(wholly.stdout()).isEqualTo("also went on\n");
    }

    @Test
    void silentHidesTheEchoOfCommands() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  mixed:
                    cmds:
                      - echo shown
                      - cmd: echo hidden
                        silent: true
                """);
        Run run = tasks.run("mixed");
        assertThat(run.stderr()).isEqualTo("task: [mixed] echo shown\n");
    }

    @Test
    void templatingFunctionsAndSpecialVariablesWork() {
        UserTasks tasks = tasks("""
                version: '3'
                vars:
                  GREETING: Hello
                  EMPTY: ''
                  MODE: fast
                tasks:
                  show:
                    silent: true
                    vars:
                      WHO: '{{.WHO | default "world"}}'
                      PADDED: '  padded  '
                    cmds:
                      - echo '{{.GREETING}}, {{ .WHO }}! {{.EMPTY | default "fallback"}}'
                      - echo '{{if eq .MODE "fast"}}quick{{else}}slow{{end}} {{if eq .MODE "x"}}x{{else if .MODE}}y{{end}}'
                      - echo '[{{trim .PADDED}}] {{OS}} {{ARCH}}'
                      - echo '{{.TASK}}|{{.ROOT_DIR}}|{{.TASKFILE_DIR}}|{{.USER_WORKING_DIR}}'
                """);
        Run run = tasks.run("show");
        assertThat(run.isError()).as(run.text()).isFalse();
        String agentDir = root.resolve(".agent").toString();
        assertThat(run.stdout())
                .isEqualTo("Hello, world! fallback\nquick y\n[padded] " + Template.operatingSystem() + " "
                        + Template.architecture() + "\nshow|" + root + "|" + agentDir + "|" + root + "\n");
    }

    @Test
    void callVarsReachTheCalledTaskAndItsDefaults() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  caller:
                    silent: true
                    cmds:
                      - task: greet
                        vars: {WHO: Ada}
                      - task: greet
                  greet:
                    silent: true
                    vars:
                      WHO: '{{.WHO | default "nobody"}}'
                    cmds: ['echo "hi {{.WHO}}"']
                """);
        assertThat(tasks.run("caller").stdout()).isEqualTo("hi Ada\nhi nobody\n");
    }

    @Test
    void shellVariablesTakeTheCommandOutputWithoutItsTrailingNewline() {
        UserTasks tasks = tasks("""
                version: '3'
                vars:
                  GLOBAL: {sh: echo global-value}
                tasks:
                  show:
                    silent: true
                    vars:
                      LOCAL: {sh: 'printf "%s-local\\n\\n" {{.GLOBAL}}'}
                    env:
                      FROM_SH: {sh: echo env-value}
                    cmds:
                      - echo "[{{.LOCAL}}] [$FROM_SH]"
                  broken:
                    vars:
                      BAD: {sh: exit 9}
                    cmds: [touch broken.ran]
                """);
        assertThat(tasks.run("show").stdout()).isEqualTo("[global-value-local\n] [env-value]\n");
        Run broken = tasks.run("broken");
        assertThat(broken.exitCode()).isEqualTo(9);
        assertThat(broken.message()).contains("the command of variable BAD (`exit 9`, line 15, column 7)");
        assertThat(root.resolve("broken.ran")).doesNotExist();
    }

    @Test
    void envAndDotenvReachTheCommandsWithTaskfileEnvWinning() {
        UserTasks.write(root.resolve(".env"), "FROM_DOTENV=dotenv\nOVERRIDDEN=dotenv\nAPI_TOKEN='from .env is fine'\n");
        UserTasks tasks = tasks("""
                version: '3'
                dotenv: ['.env', 'missing.env']
                env:
                  OVERRIDDEN: global
                  GLOBAL_ENV: '{{.FROM_DOTENV}}-templated'
                tasks:
                  show:
                    silent: true
                    env:
                      TASK_ENV: task
                    cmds:
                      - echo "$FROM_DOTENV $OVERRIDDEN $GLOBAL_ENV $TASK_ENV $API_TOKEN"
                """);
        assertThat(tasks.run("show").stdout()).isEqualTo("dotenv global dotenv-templated task from .env is fine\n");
    }

    @Test
    void dotenvFileNamesAreRenderedWithTheTaskfilesEnvAndVarsAsInGoTask() throws IOException {
        UserTasks.write(root.resolve("staging/.env"), "GREETING=hello from staging\n");
        UserTasks.write(root.resolve("config/eu.env"), "REGION_NAME=Europe\n");
        UserTasks tasks = tasks("""
                version: '3'
                env:
                  ENV: staging
                vars:
                  CONFIG: config
                  REGION: {sh: 'echo ran >> sh.log; echo eu'}
                dotenv: ['{{.ENV}}/.env', '{{.CONFIG}}/{{.REGION}}.env']
                tasks:
                  show:
                    silent: true
                    cmds:
                      - echo "$GREETING in $REGION_NAME"
                """);
        assertThat(tasks.run("show").stdout()).isEqualTo("hello from staging in Europe\n");
        // the sh: value is computed once per run, for the file names and the task alike
        assertThat(Files.readAllLines(root.resolve("sh.log"))).containsExactly("ran");
    }

    @Test
    void onlyAllowListedHostVariablesArePassedAndSecretsNeverByDefault() {
        Map<String, String> host = Map.of(
                "PATH", System.getenv("PATH"),
                "HOME", "/home/test",
                "MY_API_TOKEN", "s3cr3t",
                "DB_PASSWORD", "hunter2",
                "BUILD_FLAVOUR", "debug",
                "UNLISTED", "nope");
        UserTasks tasks =
                UserTasks.create(root, """
                version: '3'
                tasks:
                  env:
                    silent: true
                    cmds: ['env | sort']
                """, builder -> builder.environment(host).passEnv("BUILD_FLAVOUR"));
        String env = tasks.run("env").stdout();
        assertThat(env).contains("HOME=/home/test\n", "BUILD_FLAVOUR=debug\n");
        assertThat(env).doesNotContain("s3cr3t", "hunter2", "MY_API_TOKEN", "DB_PASSWORD", "UNLISTED");
        UserTasks withSecret = UserTasks.create(
                root, null, builder -> builder.environment(host).passSecretEnv("MY_API_TOKEN"));
        assertThat(withSecret.run("env").stdout())
                .contains("MY_API_TOKEN=s3cr3t\n")
                .doesNotContain("hunter2");
    }

    @Test
    void requiredVariablesMustBeSet() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  deploy:
                    requires:
                      vars: [TARGET, REGION]
                    cmds: [touch deployed]
                  caller:
                    cmds:
                      - task: deploy
                        vars: {TARGET: prod, REGION: eu}
                """);
        Run missing = tasks.run("deploy");
        assertThat(missing.isError()).isTrue();
        assertThat(missing.exitCode()).isNull();
        assertThat(missing.message())
                .startsWith("Task 'deploy' did not run: it requires variables that are not set:" + " TARGET, REGION.");
        assertThat(root.resolve("deployed")).doesNotExist();
        assertThat(tasks.run("caller").isError()).isFalse();
        assertThat(root.resolve("deployed")).exists();
    }

    @Test
    void aFailedPreconditionStopsTheTaskWithItsMessage() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  guarded:
                    preconditions:
                      - test -d .
                      - sh: test -f config.yml
                        msg: config.yml is missing; create it first
                    cmds: [touch guarded.ran]
                  plain:
                    preconditions: ['exit 6']
                    cmds: [touch plain.ran]
                """);
        Run run = tasks.run("guarded");
        assertThat(run.isError()).isTrue();
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.message())
                .isEqualTo("Task 'guarded' did not run: a precondition was not met: config.yml is"
                        + " missing; create it first (exit code 1).");
        assertThat(run.stderr()).isEqualTo("task: config.yml is missing; create it first\n");
        assertThat(root.resolve("guarded.ran")).doesNotExist();
        assertThat(tasks.run("plain").message()).contains("`exit 6` failed (exit code 6)");
        UserTasks.write(root.resolve("config.yml"), "x: 1\n");
        assertThat(tasks.run("guarded").isError()).isFalse();
        assertThat(root.resolve("guarded.ran")).exists();
    }

    @Test
    void statusCommandsSkipATaskThatIsUpToDate() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  generate:
                    status: [test -f generated.txt]
                    cmds: [echo generating, touch generated.txt]
                """);
        Run first = tasks.run("generate");
        assertThat(first.stdout()).isEqualTo("generating\n");
        Run second = tasks.run("generate");
        assertThat(second.isError()).isFalse();
        assertThat(second.stdout()).isEmpty();
        assertThat(second.stderr()).isEqualTo("task: Task \"generate\" is up to date\n");
        assertThat(second.message())
                .isEqualTo("Task 'generate' is up to date (its status checks passed); nothing" + " ran.");
    }

    @Test
    void commandsRunInTheProjectRootOrInADirBeneathIt() throws IOException {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  here:
                    silent: true
                    cmds: [pwd]
                  sub:
                    silent: true
                    dir: build/out
                    cmds: [pwd]
                """);
        assertThat(tasks.run("here").stdout()).isEqualTo(realRoot() + "\n");
        assertThat(tasks.run("sub").stdout()).isEqualTo(realRoot().resolve("build/out") + "\n");
        assertThat(Files.isDirectory(root.resolve("build/out"))).isTrue();
    }

    @Test
    void commandsRunInRootDirAndADirIsResolvedFromItAsWithTaskDirOption() {
        // go-task's rule for `task --dir <project root> --taskfile .agent/Taskfile.yml`
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  here:
                    silent: true
                    cmds: ['[ "$(pwd -P)" = "$(cd "{{.ROOT_DIR}}" && pwd -P)" ] && echo in ROOT_DIR']
                  sub:
                    silent: true
                    dir: build
                    cmds: ['[ "$(pwd -P)" = "$(cd "{{.ROOT_DIR}}/build" && pwd -P)" ] && echo in ROOT_DIR/build']
                  taskfile:
                    silent: true
                    cmds: ['ls "{{.TASKFILE_DIR}}"']
                """);
        assertThat(tasks.run("here").stdout()).isEqualTo("in ROOT_DIR\n");
        assertThat(tasks.run("sub").stdout()).isEqualTo("in ROOT_DIR/build\n");
        assertThat(tasks.run("taskfile").stdout()).isEqualTo("Taskfile.yml\n");
    }

    @Test
    void aDirThatEscapesTheRootIsRefusedAlsoThroughASymlink() throws IOException {
        Path outside = Files.createTempDirectory("taskfile-outside");
        try {
            Files.createSymbolicLink(root.resolve("link"), outside);
            UserTasks tasks = tasks("""
                    version: '3'
                    tasks:
                      up:
                        dir: ../
                        cmds: [touch escaped]
                      absolute:
                        dir: /tmp
                        cmds: [touch escaped]
                      linked:
                        dir: link/deeper
                        cmds: [touch escaped]
                    """);
            Run up = tasks.run("up");
            assertThat(up.isError()).isTrue();
            assertThat(up.message())
                    .startsWith("Task 'up' did not run: its dir '../' resolves to " + root.getParent()
                            + ", outside the project root " + root + ".");
            assertThat(tasks.run("absolute").message()).contains("its dir '/tmp' resolves to /tmp, outside");
            Run linked = tasks.run("linked");
            assertThat(linked.message()).contains("its dir 'link/deeper' resolves to", "(through a symbolic link)");
            assertThat(outside.resolve("deeper")).doesNotExist();
            assertThat(outside.resolve("escaped")).doesNotExist();
        } finally {
            Files.deleteIfExists(outside);
        }
    }

    @Test
    void stdinIsEmptyAndThereIsNoTerminal() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  io:
                    silent: true
                    cmds:
                      - cat; echo "stdin done"
                      - if [ -t 0 ] || [ -t 1 ]; then echo tty; else echo no tty; fi
                      - (exec 3<>/dev/tty) 2>/dev/null && echo has controlling terminal || echo no controlling terminal
                """);
        assertThat(tasks.run("io").stdout()).isEqualTo("stdin done\nno tty\nno controlling terminal\n");
    }

    @Test
    void aCycleOfTaskCallsIsStopped() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  ping:
                    silent: true
                    cmds: [{task: pong}]
                  pong:
                    silent: true
                    cmds: [{task: ping}]
                """);
        Run run = tasks.run("ping");
        assertThat(run.isError()).isTrue();
        assertThat(run.message()).contains("was called more than 100 times in one run");
    }

    @Test
    void anArgumentWithANewlineAndATerminalEscapeIsLoggedEscapedOnOneLine() {
        UserTasks tasks = tasks("""
                version: '3'
                tasks:
                  echo:
                    silent: true
                    cmds:
                      - printf '%s' {{.CLI_ARGS}}
                """);
        String forged = "x\n[main] INFO admin logged in \u001b[31mred";
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        // slf4j-simple writes to whatever System.err is at the time of each line.
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertThat(tasks.run("echo", forged).isError()).isFalse();
        } finally {
            System.setErr(original);
        }
        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines)
                .filteredOn(line -> line.contains("Ran user task 'echo'"))
                .singleElement(as(InstanceOfAssertFactories.STRING))
                .contains("'x\\n[main] INFO admin logged in \\u001B[31mred'")
                .doesNotContain("\u001b");
        assertThat(lines).noneMatch(line -> line.startsWith("[main] INFO admin"));
    }

    private Path realRoot() {
        try {
            return root.toRealPath();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

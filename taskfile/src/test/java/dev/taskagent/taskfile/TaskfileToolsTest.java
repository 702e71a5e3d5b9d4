package dev.taskagent.taskfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskagent.taskfile.UserTasks.Run;
import dev.taskagent.tool.ToolResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Registration, listing and re-reading of the Taskfile. */
class TaskfileToolsTest {
    private static final String TASKFILE = """
            version: '3'
            tasks:
              test:
                desc: Runs the tests
                cmds: [echo testing]
              build:
                desc: "  Builds the project  "
                cmds: [echo building]
              docs:serve:
                desc: Serves the docs
                cmds: [echo serving]
              Zebra:
                desc: Capital letters sort first
                cmds: [echo zebra]
              helper:
                desc: Internal helper
                internal: true
                cmds: [echo helping]
              undescribed:
                cmds: [echo runnable anyway]
            """;

    @TempDir
    Path root;

    @Test
    void listsDescribedPublicTasksInTaskListOrder() {
        UserTasks tasks = UserTasks.create(root, TASKFILE);
        ToolResult result = tasks.list();
        assertThat(result.isError()).isFalse();
        JsonNode json = UserTasks.parse(result.text());
        assertThat(tasks.listedNames()).containsExactly("Zebra", "build", "test", "docs:serve");
        assertThat(json.get("tasks").get(1).get("description").asText()).isEqualTo("Builds the project");
        assertThat(json.get("message").asText())
                .isEqualTo("4 tasks. Run one with run_user_task; put extra command-line arguments in args.");
        assertThat(tasks.list().text()).isEqualTo(result.text());
        assertThat(tasks.run("undescribed").stdout()).isEqualTo("runnable anyway\n");
    }

    @Test
    void descriptionsAreListedRenderedWithTheVariablesARunWouldSeeWithoutRunningAnything() {
        UserTasks.write(root.resolve(".env"), "REGION=eu-west\n");
        UserTasks tasks = UserTasks.create(root, """
                version: '3'
                dotenv: ['.env']
                vars:
                  ENV: staging
                  HOST: {sh: 'touch sh.ran; hostname'}
                tasks:
                  deploy:
                    desc: 'Deploy to {{.ENV}} in {{.REGION}} as {{.WHO}}{{.HOST}}'
                    vars:
                      WHO: '{{.WHO | default "ci"}}'
                    cmds: [echo deploying]
                  plain:
                    desc: Builds {{/* why */}}it
                    cmds: [echo]
                """);
        JsonNode listed = UserTasks.parse(tasks.list().text()).get("tasks");
        assertThat(listed.get(0).get("description").asText()).isEqualTo("Deploy to staging in eu-west as ci");
        assertThat(listed.get(1).get("description").asText()).isEqualTo("Builds it");
        assertThat(root.resolve("sh.ran"))
                .as("listing runs no command; sh: values are empty")
                .doesNotExist();
    }

    @Test
    void aBrokenDotenvFileMakesTheListingASoftErrorThatNamesIt() {
        UserTasks.write(root.resolve(".env"), "not a variable\n");
        UserTasks tasks = UserTasks.create(root, "version: '3'\ndotenv: ['.env']\n" + TASKFILE.substring(13));
        ToolResult list = tasks.list();
        assertThat(list.isError()).isTrue();
        assertThat(list.text())
                .isEqualTo("The dotenv file '.env' is malformed at line 1: expected NAME=value. The user tasks cannot"
                        + " be used until the file is fixed; tell the user.");
    }

    @Test
    void registersTwoToolsWithSchemas() {
        UserTasks tasks = UserTasks.create(root, TASKFILE);
        assertThat(tasks.toolbox.names()).containsExactly("list_user_tasks", "run_user_task");
        JsonNode schema = UserTasks.parse(
                tasks.toolbox.tool("run_user_task").orElseThrow().parametersSchema());
        assertThat(schema.get("required").toString()).isEqualTo("[\"task_name\"]");
        assertThat(schema.get("properties").get("args").get("type").asText()).isEqualTo("array");
        assertThat(tasks.warnings).isEmpty();
    }

    @Test
    void aMissingTaskfileRegistersNoToolsAndWarnsOnce() {
        UserTasks tasks = UserTasks.create(root, null);
        assertThat(tasks.toolbox.isEmpty()).isTrue();
        assertThat(tasks.warnings)
                .containsExactly("No .agent/Taskfile.yml in " + root + ": the tools list_user_tasks and run_user_task"
                        + " are not registered.");
        assertThat(TaskfileTools.forProject(root).isEmpty()).isTrue();
    }

    @Test
    void aMalformedTaskfileRegistersNoToolsAndNamesLineAndColumn() {
        UserTasks tasks = UserTasks.create(root, "version: '3'\ntasks:\n  build:\n    cmds: [echo\n  test: x\n");
        assertThat(tasks.toolbox.isEmpty()).isTrue();
        assertThat(tasks.warnings).hasSize(1);
        assertThat(tasks.warnings.get(0))
                .isEqualTo(".agent/Taskfile.yml is invalid at line 5, column 7: invalid YAML: expected ',' or ']', but"
                        + " got : (while parsing a flow sequence). The tools list_user_tasks and run_user_task are not"
                        + " registered; fix the file and restart.");
    }

    @Test
    void aRefusedFeatureAtRegistrationIsNamedInTheWarning() {
        UserTasks tasks = UserTasks.create(root, "version: '3'\nincludes:\n  other: ./other.yml\ntasks: {}\n");
        assertThat(tasks.warnings)
                .singleElement()
                .asString()
                .startsWith(".agent/Taskfile.yml is invalid at line 2, column 1: 'includes' (tasks from other"
                        + " Taskfiles) is not supported");
    }

    @Test
    void aTaskfileThatBreaksAfterRegistrationGivesErrorResultsWithLineAndColumnUntilFixed() {
        UserTasks tasks = UserTasks.create(root, TASKFILE);
        tasks.rewrite("version: '3'\ntasks:\n  build:\n    cmds: [echo]\n    for: [a]\n");
        ToolResult list = tasks.list();
        assertThat(list.isError()).isTrue();
        assertThat(list.text())
                .startsWith(".agent/Taskfile.yml is invalid at line 5, column 5: 'for' (loops) is not supported")
                .endsWith("The user tasks cannot be used until the file is fixed; tell the user.");
        Run run = tasks.run("build");
        assertThat(run.isError()).isTrue();
        assertThat(run.text()).startsWith(".agent/Taskfile.yml is invalid at line 5, column 5");
        tasks.rewrite(TASKFILE);
        assertThat(tasks.run("build").stdout()).isEqualTo("building\n");
    }

    @Test
    void aTaskfileNestedThousandsDeepIsAWarningAtRegistrationAndASoftErrorAfterwards() {
        String deepYaml = "version: '3'\ntasks:\n  a: " + "[".repeat(5000) + "]".repeat(5000) + "\n";
        UserTasks broken = UserTasks.create(root, deepYaml);
        assertThat(broken.toolbox.isEmpty()).isTrue();
        assertThat(broken.warnings)
                .singleElement()
                .asString()
                .startsWith(".agent/Taskfile.yml is invalid at line 3, column 54: lists and mappings nest more than 50"
                        + " levels deep here");
        assertThat(TaskfileTools.forProject(root).isEmpty()).isTrue();

        UserTasks tasks = UserTasks.create(root, TASKFILE);
        tasks.rewrite("version: '3'\ntasks:\n  a: echo '" + "{{if .A}}".repeat(5000) + "{{end}}".repeat(5000) + "'\n");
        ToolResult list = tasks.list();
        assertThat(list.isError()).isTrue();
        assertThat(list.text())
                .startsWith(".agent/Taskfile.yml is invalid at line 3, column 6: {{if}} blocks and parentheses nest"
                        + " more than 50 levels deep");
        assertThat(tasks.run("a").text()).isEqualTo(list.text());
    }

    @Test
    void aDeletedTaskfileGivesAnErrorResult() throws IOException {
        UserTasks tasks = UserTasks.create(root, TASKFILE);
        Files.delete(root.resolve(".agent/Taskfile.yml"));
        assertThat(tasks.list().text()).startsWith(".agent/Taskfile.yml was not found at ");
    }

    @Test
    void editsArePickedUpWithoutARestart() {
        UserTasks tasks = UserTasks.create(root, TASKFILE);
        assertThat(tasks.run("build").stdout()).isEqualTo("building\n");
        // Same length and possibly the same modification time: the content decides.
        tasks.rewrite(TASKFILE.replace("echo building", "echo BUILDING"));
        assertThat(tasks.run("build").stdout()).isEqualTo("BUILDING\n");
        tasks.rewrite(TASKFILE + "  lint:\n    desc: Lints\n    cmds: [echo linting]\n");
        assertThat(tasks.listedNames()).contains("lint");
        assertThat(tasks.run("lint").stdout()).isEqualTo("linting\n");
    }

    @Test
    void theBuilderChecksItsSettingsAtOnce() {
        TaskfileTools.Builder builder = TaskfileTools.builder(root);
        assertThatThrownBy(() -> builder.passEnv("MY_API_TOKEN"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("'MY_API_TOKEN' looks like a secret")
                .hasMessageContaining("passSecretEnv(\"MY_API_TOKEN\")");
        assertThatThrownBy(() -> builder.passEnv("A=B")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.timeout(Duration.ZERO)).hasMessageContaining("more than zero");
        assertThatThrownBy(() -> builder.outputLimitBytes(10)).hasMessageContaining("between 1024 and");
        assertThatThrownBy(() -> builder.killGracePeriod(Duration.ofMinutes(5))).hasMessageContaining("one minute");
        assertThat(TaskfileTools.looksSecret("github_token")).isTrue();
        assertThat(TaskfileTools.looksSecret("JAVA_HOME")).isFalse();
    }
}

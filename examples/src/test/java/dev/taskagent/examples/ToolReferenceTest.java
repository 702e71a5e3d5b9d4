package dev.taskagent.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.llm.ScriptedChatModel;
import dev.taskagent.llm.ToolDefinition;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.taskfile.TaskfileTools;
import dev.taskagent.tool.Toolbox;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code docs/tools.md} documents exactly the tools a model is given, each with exactly the parameters of
 * its definition: name, JSON type (with the allowed values of an enum) and whether it is required, in the
 * order the model sees them. Adding, renaming or removing a tool or a parameter fails this test until the
 * reference follows.
 *
 * <p>The reference's format, which this test reads: a {@code ## <Name> toolset} section per toolset; in it,
 * a {@code ### `tool_name`} heading per tool, followed either by a table whose header is {@code | parameter
 * | JSON type | required | meaning |} (one row per parameter, {@code yes} or {@code no} for required) or by
 * the line {@code No parameters.}. The worker toolset is a table whose header starts with {@code | tool |},
 * naming tools of the queue toolset.
 */
class ToolReferenceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String EXTRACTION = "Extraction toolset";
    private static final String QUEUE = "Queue toolset";
    private static final String WORKER = "Worker toolset";
    private static final String GRAPH = "Graph toolset";
    private static final String TASKFILE = "Taskfile toolset";

    private static final Pattern SECTION_HEADING = Pattern.compile("^## (.+)$");
    private static final Pattern TOOL_HEADING = Pattern.compile("^### `([A-Za-z0-9_-]+)`$");
    private static final String PARAMETER_TABLE_HEADER = "| parameter | JSON type | required | meaning |";
    private static final String NO_PARAMETERS = "No parameters.";
    private static final Pattern TOOL_NAME_IN_CELL = Pattern.compile("`([A-Za-z0-9_-]+)`");

    @TempDir
    static Path project;

    private static String reference;

    @BeforeAll
    static void readTheReference() throws IOException {
        reference = Files.readString(repositoryRoot().resolve("docs/tools.md"), StandardCharsets.UTF_8);
    }

    @Test
    void theExtractionSectionDocumentsEveryExtractionToolWithItsParameters() {
        assertThat(documentedSignatures(reference, EXTRACTION))
                .containsExactlyElementsOf(signatures(extractionDefinitions(true)));
    }

    @Test
    void setTaskStepsIsTheOneExtractionToolThatWithStepsToolAdds() {
        List<String> withSteps = names(extractionDefinitions(true));
        List<String> withoutSteps = names(extractionDefinitions(false));

        List<String> added = new ArrayList<>(withSteps);
        added.removeAll(withoutSteps);
        assertThat(added).containsExactly("set_task_steps");
        assertThat(withSteps).containsSubsequence(withoutSteps);
        assertThat(section(reference, EXTRACTION))
                .contains("### `set_task_steps`\n\nOffered only by an agent built"
                        + " with `TaskAgent.Builder.withStepsTool()`");
    }

    @Test
    void theQueueSectionDocumentsEveryQueueToolWithItsParameters() {
        assertThat(documentedSignatures(reference, QUEUE))
                .containsExactlyElementsOf(signatures(queue().tools().definitions()));
    }

    @Test
    void theGraphSectionDocumentsEveryGraphToolWithItsParameters() {
        assertThat(documentedSignatures(reference, GRAPH))
                .containsExactlyElementsOf(signatures(queue().graphTools().definitions()));
    }

    @Test
    void theWorkerSectionNamesExactlyTheWorkerTools() {
        assertThat(workerToolsNamedIn(reference))
                .containsExactlyElementsOf(names(queue().workerTools().definitions()));
    }

    @Test
    void theWorkerToolsAreDefinedExactlyAsTheQueueToolsOfTheirNames() {
        TaskQueue queue = queue();
        Map<String, ToolDefinition> queueTools = byName(queue.tools().definitions());

        for (ToolDefinition worker : queue.workerTools().definitions()) {
            assertThat(worker).as(worker.name()).isEqualTo(queueTools.get(worker.name()));
        }
    }

    @Test
    void theTaskfileSectionDocumentsBothTaskfileToolsWithTheirParameters() throws IOException {
        assertThat(documentedSignatures(reference, TASKFILE))
                .containsExactlyElementsOf(signatures(taskfileDefinitions()));
    }

    @Test
    void everyToolHeadingOfTheReferenceIsInTheSectionOfAToolset() {
        List<String> misplaced = new ArrayList<>();
        String section = "";
        for (String line : linesOutsideCodeBlocks(reference)) {
            Matcher heading = SECTION_HEADING.matcher(line);
            if (heading.matches()) {
                section = heading.group(1);
            } else if (TOOL_HEADING.matcher(line).matches()
                    && !(section.equals(EXTRACTION)
                            || section.equals(QUEUE)
                            || section.equals(GRAPH)
                            || section.equals(TASKFILE))) {
                misplaced.add(line + " under '## " + section + "'");
            }
        }

        assertThat(misplaced).isEmpty();
    }

    @Test
    void theCheckFailsWhenAToolOrAParameterOfTheReferenceDrifts() {
        List<String> queueTools = signatures(queue().tools().definitions());
        String renamedParameter = reference.replace(
                "| `agent_name` | string | yes | the agent whose queue to claim from |",
                "| `agent` | string | yes | the agent whose queue to claim from |");
        String optionalParameter = reference.replace(
                "| `task_id` | integer | yes | the task |\n\nResult: `Task #7 archived`",
                "| `task_id` | integer | no | the task |\n\nResult: `Task #7 archived`");
        String retypedParameter = reference.replace(
                "| `priority` | integer | no | higher is claimed first",
                "| `priority` | number | no | higher is claimed first");
        String removedTool = reference.replace("### `archive_task`", "### Archiving");
        String extraParameter = reference.replace(
                "| `agent_name` | string | yes | the agent |\n",
                "| `agent_name` | string | yes | the agent |\n| `limit` | integer | no | how many |\n");

        assertThat(List.of(renamedParameter, optionalParameter, retypedParameter, removedTool, extraParameter))
                .allSatisfy(drifted -> {
                    assertThat(drifted).isNotEqualTo(reference);
                    assertThat(documentedSignatures(drifted, QUEUE)).isNotEqualTo(queueTools);
                });
    }

    /** The tools a TaskAgent sends its model, read from the first request of a scripted run. */
    private static List<ToolDefinition> extractionDefinitions(boolean withStepsTool) {
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.toolCalls(ScriptedChatModel.call("finish", "{}")))
                .build();
        TaskAgent.Builder agent = TaskAgent.builder(new InMemoryTaskStore(), model);
        if (withStepsTool) {
            agent.withStepsTool();
        }
        AgentRun run = agent.build().run("tool-reference", List.of(ConversationMessage.user("m1", "Hello")));

        assertThat(run.isSuccess()).isTrue();
        return model.requests().get(0).tools();
    }

    private static TaskQueue queue() {
        return TaskQueue.builder(new InMemoryTaskStore()).build();
    }

    private static List<ToolDefinition> taskfileDefinitions() throws IOException {
        Path agentFolder = Files.createDirectories(project.resolve(".agent"));
        Files.writeString(
                agentFolder.resolve("Taskfile.yml"),
                "version: '3'\ntasks:\n  hello:\n    desc: Says hello\n    cmds:\n      - echo hello\n",
                StandardCharsets.UTF_8);
        Toolbox tools = TaskfileTools.forProject(project);

        assertThat(tools.isEmpty())
                .as("TaskfileTools registered no tool; see the warning in the log")
                .isFalse();
        return tools.definitions();
    }

    /**
     * Renders each tool as one line, {@code name(parameter: type, required; …)}, so that a failure shows
     * which tool and which parameter differ.
     */
    private static List<String> signatures(List<ToolDefinition> definitions) {
        return definitions.stream().map(ToolReferenceTest::signature).toList();
    }

    private static String signature(ToolDefinition definition) {
        JsonNode schema = parse(definition.parametersSchemaJson());
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(name -> required.add(name.asText()));
        List<String> parameters = new ArrayList<>();
        schema.path("properties")
                .properties()
                .forEach(property -> parameters.add(parameter(
                        property.getKey(), jsonType(property.getValue()), required.contains(property.getKey()))));
        return definition.name() + "(" + String.join("; ", parameters) + ")";
    }

    /** The type as the reference writes it: {@code integer}, {@code array of strings}, {@code string, one of a, b}. */
    private static String jsonType(JsonNode property) {
        String type = property.path("type").asText();
        if (type.equals("array")) {
            return "array of " + property.path("items").path("type").asText() + "s";
        }
        if (property.has("enum")) {
            List<String> values = new ArrayList<>();
            property.path("enum").forEach(value -> values.add(value.asText()));
            return type + ", one of " + String.join(", ", values);
        }
        return type;
    }

    private static String parameter(String name, String type, boolean required) {
        return name + ": " + type + (required ? ", required" : ", optional");
    }

    /**
     * Reads the tools of one toolset's section of the reference, as {@link #signature} renders a definition.
     * A tool section with no parameter table and no {@code No parameters.} line, or with both, or with two
     * tables, gets a signature that says so, which no definition has.
     */
    private static List<String> documentedSignatures(String markdown, String sectionTitle) {
        List<DocumentedTool> tools = new ArrayList<>();
        DocumentedTool tool = null;
        boolean inParameterTable = false;
        for (String line : linesOutsideCodeBlocks(section(markdown, sectionTitle))) {
            Matcher heading = TOOL_HEADING.matcher(line);
            if (heading.matches()) {
                tool = new DocumentedTool(heading.group(1));
                tools.add(tool);
                inParameterTable = false;
            } else if (line.startsWith("### ")) {
                tool = null; // a subsection that is not a tool, such as "The task as JSON"
            } else if (tool == null) {
                continue;
            } else if (line.equals(PARAMETER_TABLE_HEADER)) {
                tool.tables++;
                inParameterTable = true;
            } else if (inParameterTable && line.startsWith("|")) {
                if (!line.startsWith("| ---")) {
                    List<String> cells = cells(line);
                    tool.parameters.add(parameter(
                            cells.get(0).replace("`", ""),
                            cells.get(1).replace("`", ""),
                            cells.get(2).equals("yes")));
                }
            } else {
                inParameterTable = false;
                if (line.equals(NO_PARAMETERS)) {
                    tool.noParameters = true;
                }
            }
        }
        return tools.stream().map(DocumentedTool::signature).toList();
    }

    /** A tool as a section of the reference documents it. */
    private static final class DocumentedTool {
        private final String name;
        private final List<String> parameters = new ArrayList<>();
        private boolean noParameters;
        private int tables;

        DocumentedTool(String name) {
            this.name = name;
        }

        String signature() {
            if (noParameters == (tables > 0) || tables > 1) {
                return name + "(the section needs exactly one parameter table or the line '" + NO_PARAMETERS + "')";
            }
            return name + "(" + String.join("; ", parameters) + ")";
        }
    }

    private static String section(String markdown, String title) {
        String start = "\n## " + title + "\n";
        int from = markdown.indexOf(start);
        assertThat(from).as("docs/tools.md has a section '## " + title + "'").isNotNegative();
        int to = markdown.indexOf("\n## ", from + start.length());
        return markdown.substring(from + 1, to < 0 ? markdown.length() : to + 1);
    }

    private static List<String> workerToolsNamedIn(String markdown) {
        List<String> names = new ArrayList<>();
        boolean inTable = false;
        for (String line : linesOutsideCodeBlocks(section(markdown, WORKER))) {
            if (line.startsWith("| tool |")) {
                inTable = true;
            } else if (inTable && line.startsWith("|")) {
                if (!line.startsWith("| ---")) {
                    Matcher name = TOOL_NAME_IN_CELL.matcher(cells(line).get(0));
                    names.add(name.find() ? name.group(1) : cells(line).get(0));
                }
            } else {
                inTable = false;
            }
        }
        return names;
    }

    private static List<String> names(List<ToolDefinition> definitions) {
        return definitions.stream().map(ToolDefinition::name).toList();
    }

    private static Map<String, ToolDefinition> byName(List<ToolDefinition> definitions) {
        Map<String, ToolDefinition> byName = new LinkedHashMap<>();
        definitions.forEach(definition -> byName.put(definition.name(), definition));
        return byName;
    }

    /** The cells of a Markdown table row, trimmed; a pipe escaped as {@code \|} stays in its cell. */
    private static List<String> cells(String row) {
        String inner = row.strip();
        inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("(?<!\\\\)\\|", -1)) {
            cells.add(cell.strip());
        }
        return cells;
    }

    private static List<String> linesOutsideCodeBlocks(String markdown) {
        List<String> lines = new ArrayList<>();
        boolean inCode = false;
        for (String line : markdown.split("\n", -1)) {
            if (line.startsWith("```")) {
                inCode = !inCode;
            } else if (!inCode) {
                lines.add(line);
            }
        }
        return lines;
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The folder that holds docs/tools.md: the repository root, above the module Maven runs the test in. */
    private static Path repositoryRoot() {
        for (Path folder = Path.of("").toAbsolutePath(); folder != null; folder = folder.getParent()) {
            if (Files.isRegularFile(folder.resolve("docs/tools.md")) && Files.isRegularFile(folder.resolve("mvnw"))) {
                return folder;
            }
        }
        throw new IllegalStateException(
                "docs/tools.md not found above " + Path.of("").toAbsolutePath());
    }
}

package dev.taskagent.testkit.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.llm.ToolCall;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.testkit.MutableClock;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The work graph through the queue's tools ({@link TaskQueue#tools()} with {@link TaskQueue#graphTools()}),
 * as a model calls them, written once and run on every store: {@code create_task} with a parent, blockers,
 * tags and metadata; {@code add_dependency}, {@code remove_dependency} and {@code create_task_tree};
 * {@code get_task} and {@code get_my_queue} showing the graph; {@code complete_task} over open subtasks
 * and {@code update_task} moving a task in the tree. Every refusal is checked to be an error result whose
 * text says what to do, with nothing written. Subclass it in a store's tests and return a fresh, empty
 * store from {@link #createStore(Clock)}.
 */
public abstract class QueueGraphToolsSuite {
    private TaskStore store;
    private TaskQueue queue;
    private Toolbox tools;

    /** For subclasses, which name the store under test through {@link #createStore(Clock)}. */
    protected QueueGraphToolsSuite() {}

    /**
     * Creates the store under test. Each call must return a new, empty store; the suite closes it.
     *
     * @param clock the clock the store must take its timestamps from
     * @return the store
     */
    protected abstract TaskStore createStore(Clock clock);

    @BeforeEach
    void createQueue() {
        store = createStore(MutableClock.standard());
        queue = TaskQueue.builder(store).build();
        tools = queue.tools().with(queue.graphTools());
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    private ToolResult call(String name, String arguments) {
        return tools.call(new ToolCall("c1", name, arguments));
    }

    private Task create(String agent, String description) {
        return queue.create(queue.newTask(description).assignee(agent).build());
    }

    private List<Task> all() {
        return store.listTasks(queue.sessionId());
    }

    @Test
    void theGraphToolsAreAToolsetOfTheirOwn() {
        assertThat(queue.graphTools().names())
                .containsExactly("add_dependency", "remove_dependency", "create_task_tree");
        assertThat(queue.tools().names())
                .doesNotContainAnyElementsOf(queue.graphTools().names());
    }

    @Test
    void createTaskTakesParentBlockersTagsAndMetadata() {
        Task parent = create("alice", "Release");
        Task build = create("alice", "Build");

        ToolResult result = call(
                "create_task",
                "{\"description\":\"Deploy\",\"assignee\":\"alice\",\"parent_id\":" + parent.id() + ",\"blocked_by\":["
                        + build.id() + "],\"tags\":[\"ops\",\"release\"],\"metadata\":{\"issue\":\"PROJ-12\"}}");

        assertThat(result.isError()).isFalse();
        Task deploy = all().get(2);
        assertThat(result.text()).isEqualTo("Task #" + deploy.id() + " created, waiting for #" + build.id());
        assertThat(deploy.parentId()).isEqualTo(parent.id());
        assertThat(deploy.blockedBy()).containsExactly(build.id());
        assertThat(deploy.tags()).containsExactly("ops", "release");
        assertThat(deploy.metadata()).isEqualTo("{\"issue\":\"PROJ-12\"}");
        assertThat(call("create_task", "{\"description\":\"x\",\"metadata\":\"{\\\"a\\\":1}\"}")
                        .isError())
                .as("metadata may come as a string holding an object")
                .isFalse();
    }

    @Test
    void createTaskRefusesBadGraphArgumentsAndWritesNothing() {
        Task existing = create("alice", "Existing");
        StringBuilder tags = new StringBuilder("[");
        for (int i = 0; i < Task.MAX_TAGS + 1; i++) {
            tags.append(i == 0 ? "" : ",").append("\"t").append(i).append('"');
        }
        tags.append(']');

        assertThat(call("create_task", "{\"description\":\"x\",\"tags\":" + tags + "}"))
                .isEqualTo(ToolResult.error("Argument 'tags': a task takes at most 16 tags; 17 were given."));
        assertThat(call("create_task", "{\"description\":\"x\",\"metadata\":[1,2]}"))
                .isEqualTo(ToolResult.error(
                        "Argument 'metadata' must be an object, not the array [1,2]. Send a JSON object"
                                + " such as {\"issue\": \"PROJ-12\"}."));
        assertThat(call("create_task", "{\"description\":\"x\",\"metadata\":\"[1]\"}")
                        .text())
                .startsWith("Argument 'metadata': metadata must be a JSON object");
        assertThat(call(
                        "create_task",
                        "{\"description\":\"x\",\"blocked_by\":[" + existing.id() + "," + existing.id() + "]}"))
                .isEqualTo(ToolResult.error(
                        "Argument 'blocked_by' names task " + existing.id() + " twice; name it" + " once."));
        assertThat(call("create_task", "{\"description\":\"x\",\"blocked_by\":[0]}")
                        .text())
                .isEqualTo("Argument 'blocked_by' holds 0; task ids are positive integers.");
        assertThat(call("create_task", "{\"description\":\"x\",\"blocked_by\":[999]}"))
                .isEqualTo(ToolResult.error("Task 999 not found"));
        assertThat(call("create_task", "{\"description\":\"x\",\"parent_id\":999}"))
                .isEqualTo(ToolResult.error("Task 999 not found"));
        assertThat(all()).containsExactly(existing);
    }

    @Test
    void addAndRemoveDependencyAnswerWithWhatIsLeftAndRefuseCyclesNamingThem() {
        Task a = create("alice", "A");
        Task b = create("alice", "B");
        Task c = create("alice", "C");

        assertThat(call("add_dependency", "{\"task_id\":" + b.id() + ",\"blocker_id\":" + a.id() + "}"))
                .isEqualTo(ToolResult.ok(
                        "Task #" + b.id() + " now waits for task #" + a.id() + "; it waits for 1 unfinished task"));
        call("add_dependency", "{\"task_id\":" + c.id() + ",\"blocker_id\":" + b.id() + "}");
        List<Task> before = all();

        ToolResult cycle = call("add_dependency", "{\"task_id\":" + a.id() + ",\"blocker_id\":" + c.id() + "}");
        assertThat(cycle.isError()).isTrue();
        assertThat(cycle.text())
                .contains("would close the cycle " + a.id() + " → " + b.id() + " → " + c.id() + " → " + a.id());
        assertThat(call("add_dependency", "{\"task_id\":" + a.id() + ",\"blocker_id\":" + a.id() + "}"))
                .isEqualTo(ToolResult.error("Task " + a.id() + " cannot depend on itself"));
        assertThat(call("add_dependency", "{\"task_id\":" + b.id() + ",\"blocker_id\":" + a.id() + "}"))
                .isEqualTo(ToolResult.error("Task " + b.id() + " already depends on task " + a.id()));
        assertThat(call("add_dependency", "{\"task_id\":" + a.id() + ",\"blocker_id\":999}"))
                .isEqualTo(ToolResult.error("Task 999 not found"));
        assertThat(call("add_dependency", "{\"task_id\":" + a.id() + "}").text())
                .contains("blocker_id");
        assertThat(call("remove_dependency", "{\"task_id\":" + a.id() + ",\"blocker_id\":" + b.id() + "}"))
                .isEqualTo(ToolResult.error(
                        "Task " + a.id() + " does not depend on task " + b.id() + "; there is nothing to remove"));
        assertThat(all()).isEqualTo(before);

        assertThat(call("remove_dependency", "{\"task_id\":" + b.id() + ",\"blocker_id\":" + a.id() + "}"))
                .isEqualTo(ToolResult.ok("Task #" + b.id() + " no longer waits for task #" + a.id()
                        + "; it waits for no unfinished task"));
    }

    @Test
    void createTaskTreeLaysOutAPlanAndReturnsTheIdsByKey() {
        ToolResult result = call("create_task_tree", """
                {"description":"Ship 2.0","assignee":"lead","tags":["release"],"children":[
                  {"key":"build","description":"Build it","assignee":"dev"},
                  {"key":"test","description":"Test it","assignee":"qa","blocked_by":["build"]},
                  {"key":"deploy","description":"Deploy it","assignee":"ops","blocked_by":["test","build"],
                   "metadata":{"env":"prod"}}]}""");

        assertThat(result.isError()).as(result.text()).isFalse();
        List<Task> tasks = all();
        assertThat(tasks).hasSize(4);
        Task parent = tasks.get(0);
        Task build = tasks.get(1);
        Task test = tasks.get(2);
        Task deploy = tasks.get(3);
        assertThat(result.text())
                .isEqualTo("Task #" + parent.id() + " created with 3 subtasks:\n"
                        + "build: #" + build.id() + "\n"
                        + "test: #" + test.id() + ", waits for build\n"
                        + "deploy: #" + deploy.id() + ", waits for test, build");
        assertThat(parent.tags()).containsExactly("release");
        assertThat(deploy.blockedBy()).containsExactly(build.id(), test.id());
        assertThat(deploy.metadata()).isEqualTo("{\"env\":\"prod\"}");
        assertThat(List.of(build, test, deploy))
                .allSatisfy(child -> assertThat(child.parentId()).isEqualTo(parent.id()));
    }

    @Test
    void createTaskTreeRefusesABadPlanAndWritesNothing() {
        String cycle = """
                {"description":"P","children":[
                  {"key":"a","description":"A","blocked_by":["b"]},
                  {"key":"b","description":"B","blocked_by":["a"]}]}""";
        String unknown = """
                {"description":"P","children":[{"key":"a","description":"A","blocked_by":["nope"]}]}""";
        String duplicate = """
                {"description":"P","children":[{"key":"a","description":"A"},{"key":"a","description":"B"}]}""";
        String self = """
                {"description":"P","children":[{"key":"a","description":"A","blocked_by":["a"]}]}""";

        assertThat(call("create_task_tree", cycle))
                .isEqualTo(ToolResult.error("Nothing was created: the subtasks wait for each other in a cycle:"
                        + " a → b → a (each waits for the next); remove one of those waits."));
        assertThat(call("create_task_tree", unknown))
                .isEqualTo(ToolResult.error("Nothing was created: subtask 'a' waits for 'nope', which is not a key"
                        + " of this tree; its keys are a."));
        assertThat(call("create_task_tree", duplicate))
                .isEqualTo(
                        ToolResult.error("Nothing was created: two subtasks have the key 'a'; give each its own key."));
        assertThat(call("create_task_tree", self))
                .isEqualTo(ToolResult.error("Nothing was created: subtask 'a' cannot wait for itself."));
        assertThat(call("create_task_tree", "{\"description\":\"P\",\"children\":[]}")
                        .isError())
                .isTrue();
        assertThat(call(
                        "create_task_tree",
                        "{\"description\":\"P\",\"parent_id\":999,\"children\":[{\"key\":\"a\","
                                + "\"description\":\"A\"}]}"))
                .isEqualTo(ToolResult.error("Task 999 not found"));
        assertThat(all()).isEmpty();
    }

    @Test
    void getTaskShowsBlockersWithStatusesDependantsAndSubtaskProgress() {
        call("create_task_tree", """
                {"description":"Ship","children":[
                  {"key":"build","description":"Build","assignee":"dev"},
                  {"key":"deploy","description":"Deploy","assignee":"ops","blocked_by":["build"]}]}""");
        List<Task> tasks = all();
        Task parent = tasks.get(0);
        Task build = tasks.get(1);
        Task deploy = tasks.get(2);
        Task claimed = queue.claimNext("dev").orElseThrow();
        queue.complete(claimed.id(), "dev", claimed.attempt(), TaskStatus.FAILED, "compiler crashed");

        String deployText =
                call("get_task", "{\"task_id\":" + deploy.id() + "}").text();
        assertThat(deployText)
                .contains("\"blocked_by\":[" + build.id() + "],\"open_blockers\":1")
                .endsWith("\nWaits for (1 of 1 unfinished):\n#" + build.id() + " failed p0: Build\n"
                        + "A failed task it waits for keeps it blocked: retry that task, or remove the dependency with"
                        + " remove_dependency.");
        assertThat(call("get_task", "{\"task_id\":" + build.id() + "}").text())
                .endsWith("\nWaited for by:\n#" + deploy.id() + " pending p0: Deploy");
        assertThat(call("get_task", "{\"task_id\":" + parent.id() + "}").text())
                .endsWith("\nSubtasks (0/2 done):\n#" + build.id() + " failed p0: Build\n#" + deploy.id()
                        + " pending p0: Deploy");
    }

    @Test
    void getMyQueueFiltersReadyAndBlockedAndByTagAndNamesOpenBlockers() {
        Task build = queue.create(
                queue.newTask("Build").assignee("alice").tags("backend").build());
        Task deploy = queue.create(
                queue.newTask("Deploy").assignee("alice").blockedBy(build.id()).build());

        assertThat(call("get_my_queue", "{\"agent_name\":\"alice\"}").text())
                .isEqualTo("Tasks of alice:\n#" + build.id() + " pending p0: Build\n#" + deploy.id()
                        + " pending p0: Deploy — waits for #" + build.id() + " (pending)");
        assertThat(call("get_my_queue", "{\"agent_name\":\"alice\",\"filter\":\"ready\"}")
                        .text())
                .isEqualTo("Ready tasks of alice:\n#" + build.id() + " pending p0: Build");
        assertThat(call("get_my_queue", "{\"agent_name\":\"alice\",\"filter\":\"blocked\"}")
                        .text())
                .isEqualTo("Blocked tasks of alice:\n#" + deploy.id() + " pending p0: Deploy — waits for #" + build.id()
                        + " (pending)");
        assertThat(call("get_my_queue", "{\"agent_name\":\"alice\",\"tag\":\"backend\"}")
                        .text())
                .isEqualTo("Tasks of alice tagged 'backend':\n#" + build.id() + " pending p0: Build");
        assertThat(call("get_my_queue", "{\"agent_name\":\"alice\",\"filter\":\"blocked\",\"tag\":\"backend\"}"))
                .isEqualTo(ToolResult.ok("No blocked tasks tagged 'backend' for alice"));
        assertThat(call("get_my_queue", "{\"agent_name\":\"alice\",\"filter\":\"soon\"}"))
                .isEqualTo(ToolResult.error("Argument 'filter' is 'soon'; use one of all, ready, blocked."));
    }

    @Test
    void completeTaskOverOpenChildrenOnlyWhenAskedAndUpdateTaskChangesTagsMetadataAndParent() {
        Task parent = create("alice", "Parent");
        Task child = queue.create(
                queue.newTask("Child").assignee("bob").parent(parent.id()).build());
        Task claimed = queue.claimNext("alice").orElseThrow();
        String complete = "{\"task_id\":" + parent.id() + ",\"agent_name\":\"alice\",\"attempt\":" + claimed.attempt()
                + ",\"status\":\"success\"";

        assertThat(call("complete_task", complete + "}"))
                .isEqualTo(ToolResult.error("Task " + parent.id() + " cannot be completed with success while its"
                        + " subtasks " + child.id() + " (pending) are unfinished; finish them first, or complete it"
                        + " over them explicitly"));
        assertThat(store.findTask(parent.id()).orElseThrow().status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(call("complete_task", complete + ",\"even_with_open_children\":true}"))
                .isEqualTo(ToolResult.ok("Task #" + parent.id() + " completed: success"));

        assertThat(call(
                        "update_task",
                        "{\"task_id\":" + child.id() + ",\"tags\":[\"x\"],\"metadata\":{\"k\":1},\"parent_id\":0}"))
                .isEqualTo(ToolResult.ok("Task #" + child.id() + " updated"));
        Task updated = store.findTask(child.id()).orElseThrow();
        assertThat(updated.tags()).containsExactly("x");
        assertThat(updated.metadata()).isEqualTo("{\"k\":1}");
        assertThat(updated.hasParent()).isFalse();
        assertThat(call("update_task", "{\"task_id\":" + child.id() + ",\"parent_id\":" + child.id() + "}"))
                .isEqualTo(ToolResult.error(
                        "Argument 'parent_id' must be another task's id, or 0 for no parent, not " + child.id() + "."));
        assertThat(call("update_task", "{\"task_id\":" + parent.id() + ",\"parent_id\":" + child.id() + "}")
                        .isError())
                .isFalse();
        assertThat(call("update_task", "{\"task_id\":" + child.id() + ",\"parent_id\":" + parent.id() + "}"))
                .as("a parent cycle is refused")
                .satisfies(result -> assertThat(result.isError()).isTrue());
        assertThat(store.findTask(child.id()).orElseThrow().hasParent()).isFalse();
    }
}

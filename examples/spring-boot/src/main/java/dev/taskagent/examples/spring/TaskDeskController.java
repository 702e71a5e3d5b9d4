package dev.taskagent.examples.spring;

import dev.taskagent.extraction.AgentRun;
import dev.taskagent.extraction.ConversationMessage;
import dev.taskagent.extraction.TaskAgent;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.tool.ToolResult;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The help desk's web API: every operation is one call on a bean the starter made. */
@RestController
class TaskDeskController {
    private final TaskQueue queue;
    private final TaskAgent agent;

    TaskDeskController(TaskQueue queue, TaskAgent agent) {
        this.queue = queue;
        this.agent = agent;
    }

    /** A message of a conversation; the agent files what it asks for as tasks. */
    record Message(String id, String text) {}

    /** A task to queue for an agent. */
    record NewTaskRequest(String description, String assignee) {}

    /** How a worker ends its claim. */
    record Completion(String agent, int attempt, String status, String comment) {}

    @PostMapping("/conversations/{sessionId}/messages")
    List<TaskView> read(@PathVariable("sessionId") String sessionId, @RequestBody Message message) {
        AgentRun run = agent.run(sessionId, List.of(ConversationMessage.user(message.id(), message.text())));
        return run.createdTasks().stream().map(TaskView::of).toList();
    }

    @PostMapping("/tasks")
    TaskView create(@RequestBody NewTaskRequest request) {
        return TaskView.of(queue.create(queue.newTask(request.description())
                .assignee(request.assignee())
                .build()));
    }

    @PostMapping("/tasks/claim")
    ResponseEntity<TaskView> claim(@RequestParam("agent") String agent) {
        return queue.claimNext(agent)
                .map(task -> ResponseEntity.ok(TaskView.of(task)))
                .orElseGet(() -> ResponseEntity.noContent().build());
    }

    @PostMapping("/tasks/{id}/complete")
    TaskView complete(@PathVariable("id") long id, @RequestBody Completion completion) {
        return TaskView.of(queue.complete(
                id,
                completion.agent(),
                completion.attempt(),
                TaskStatus.fromWireName(completion.status()),
                completion.comment()));
    }

    /** The task as a model sees it through the queue's get_task tool (JSON written with Jackson 2). */
    @GetMapping(value = "/tasks/{id}/as-tool-result", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> asToolResult(@PathVariable("id") long id) {
        ToolResult result = queue.tools().call(new ToolCall("web", "get_task", "{\"task_id\": " + id + "}"));
        return result.isError() ? ResponseEntity.badRequest().body(result.text()) : ResponseEntity.ok(result.text());
    }
}

/**
 * taskagent core: the task model, the {@code TaskStore} and {@code ChatModel} SPIs, tools, the extraction
 * agent, the work queue, Markdown steps and events.
 */
@SuppressWarnings("module") // the qualified export names modules built after this one
module dev.taskagent.core {
    requires transitive org.slf4j;
    requires com.fasterxml.jackson.databind;

    exports dev.taskagent;
    exports dev.taskagent.task;
    exports dev.taskagent.store;
    exports dev.taskagent.store.spi;
    exports dev.taskagent.event;
    exports dev.taskagent.llm;
    exports dev.taskagent.tool;

    // Each feature package is exported once it has public types (javac refuses empty packages).
    exports dev.taskagent.extraction;
    exports dev.taskagent.queue;
    exports dev.taskagent.steps;
    exports dev.taskagent.observe;
    exports dev.taskagent.dialect;

    // Not API: shared with the library's own modules only, so that they shorten and check texts the one way.
    exports dev.taskagent.internal to
            dev.taskagent.taskfile,
            dev.taskagent.mcp,
            dev.taskagent.dashboard,
            dev.taskagent.spring.boot.autoconfigure;
    // The one JSON model of a task, rendered by the MCP server and the board as the tools render it.
    exports dev.taskagent.internal.json to
            dev.taskagent.mcp,
            dev.taskagent.dashboard;
    // The paging of a session's listing, shared by the dialects' and the MCP server's listing tools.
    exports dev.taskagent.internal.paging to
            dev.taskagent.mcp;

    uses dev.taskagent.llm.ChatModelProvider;
}

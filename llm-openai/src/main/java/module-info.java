/**
 * A {@code ChatModel} on the official {@code openai-java} SDK (Chat Completions API), for OpenAI and any
 * OpenAI-compatible server, registered for {@link java.util.ServiceLoader}.
 */
module dev.taskagent.llm.openai {
    requires transitive dev.taskagent.core;
    requires com.fasterxml.jackson.databind;
    // openai-java ships without module descriptors or Automatic-Module-Name: these are the automatic
    // module names derived from its jar files. None of its types appear in this module's API.
    requires openai.java.core;
    requires openai.java.client.okhttp;

    exports dev.taskagent.llm.openai;

    provides dev.taskagent.llm.ChatModelProvider with
            dev.taskagent.llm.openai.OpenAiChatModelProvider;
}

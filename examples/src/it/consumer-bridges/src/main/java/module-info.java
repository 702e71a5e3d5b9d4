/**
 * An application that uses taskagent's framework bridges from the module path. Spring AI's and LangChain4j's
 * jars have no module descriptors: they are automatic modules, named after their files (and so is
 * taskagent-spring-ai, which depends on them), hence the warning suppressed here.
 */
@SuppressWarnings("requires-automatic")
module com.example.bridges {
    requires dev.taskagent.core;
    requires dev.taskagent.store.inmemory;
    requires dev.taskagent.langchain4j;
    requires dev.taskagent.spring.ai;
    requires spring.ai.model;
}

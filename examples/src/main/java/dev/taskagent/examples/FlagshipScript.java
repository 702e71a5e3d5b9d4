package dev.taskagent.examples;

import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.FinishReason;
import dev.taskagent.llm.ScriptedChatModel;
import dev.taskagent.llm.TokenUsage;
import java.util.List;

/**
 * What a model would answer in the flagship demo when no real model is configured: the offline script.
 *
 * <p>Thread-safe (stateless); each call returns a fresh model.
 */
final class FlagshipScript {
    private static final String CHECK = "\u2713";

    private FlagshipScript() {}

    /** @return a model that extracts the task in the user's words, with two steps and the merged preference */
    static ScriptedChatModel extraction() {
        String request = "Research Bangkok attractions for the kids and send me the list on WhatsApp";
        return ScriptedChatModel.builder()
                .respond(ScriptedChatModel.toolCalls(
                        ScriptedChatModel.call(
                                "report_thinking",
                                "{\"thinking\":\"One request with two actions (research, then send on WhatsApp):"
                                        + " one task in the user's words, two steps. The preference changed from"
                                        + " shade to indoor: write the merged preference.\"}"),
                        ScriptedChatModel.call(
                                "insert_task", "{\"after_task_order\":0,\"task_description\":\"" + request + "\"}")))
                .respond(ScriptedChatModel.toolCalls(
                        ScriptedChatModel.call(
                                "set_task_steps",
                                "{\"task_order\":1,\"steps\":[\"Research indoor Bangkok attractions for kids\","
                                        + "\"Send the list on WhatsApp\"]}"),
                        ScriptedChatModel.call(
                                "set_task_user_preference",
                                "{\"task_order\":1,\"user_preference\":\"Indoor places (it is 38 degrees);"
                                        + " suitable for kids\"}"),
                        ScriptedChatModel.call("finish", "{}")))
                .build();
    }

    /** @return a model that executes the steps: streams step 1, calls the WhatsApp tool, step 2, a summary */
    static ScriptedChatModel execution() {
        return ScriptedChatModel.builder()
                .streamChunkSize(9)
                .respond(new ChatResponse(
                        "Indoor and kid-friendly: Sea Life Bangkok Ocean World, the Children's Discovery Museum,"
                                + " KidZania Bangkok and the Bangkok Art and Culture Centre.\n"
                                + CHECK + " STEP 1: Research indoor Bangkok attractions for kids\n"
                                + "Sending the list on WhatsApp.\n",
                        List.of(ScriptedChatModel.call(
                                "send_whatsapp",
                                "{\"to\":\"Hanan\",\"message\":\"Indoor Bangkok for the kids: Sea Life, Children's"
                                        + " Discovery Museum, KidZania, BACC\"}")),
                        FinishReason.TOOL_CALLS,
                        new TokenUsage(420, 80)))
                .respond(ScriptedChatModel.text(CHECK + " STEP 2: Send the list on WhatsApp\n"
                        + "Done: four indoor attractions researched and sent to Hanan on WhatsApp."))
                .build();
    }
}

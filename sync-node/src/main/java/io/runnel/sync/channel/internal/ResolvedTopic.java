package io.runnel.sync.channel.internal;

import io.runnel.dsl.Actor;
import io.runnel.dsl.server.Channel;
import io.runnel.dsl.server.Declarations;
import io.runnel.sync.channel.ChannelException;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.Texts;
import java.util.Map;

/**
 * A topic matched to the channel that declares it, with its params decoded. Topics deny by default: a topic is
 * admitted only when a declared channel's name starts it and it spells exactly that channel's params, in the one
 * spelling {@code ChannelRef.topic} writes (so two spellings never make two rooms of the same params).
 *
 * @param channel the declaring channel
 * @param topic the topic
 * @param params the param values by name
 */
record ResolvedTopic(Channel channel, String topic, Map<String, String> params) {

  private static final System.Logger LOG = System.getLogger(ResolvedTopic.class.getName());

  /**
   * Resolves {@code topic} against {@code declarations}.
   *
   * @throws ChannelException {@code X_TOPIC_FORBIDDEN} when no channel declares it, its param count differs, a
   *     param is not percent-encoded UTF-8, or it is not spelled as {@code ChannelRef.topic} spells it
   */
  static ResolvedTopic of(Declarations declarations, String topic) {
    int dot = topic.indexOf('.');
    String name = dot < 0 ? topic : topic.substring(0, dot);
    Channel channel = declarations.channel(name).orElseThrow(() -> forbidden(
        "No channel declares topic '" + Texts.echo(topic, 120) + "'.",
        "Join a topic of a declared channel, spelled by its ChannelRef: <channel>.<param>…"));
    Map<String, String> params;
    try {
      params = channel.ref().parseTopic(topic);
    } catch (InputInvalidException e) {
      throw forbidden(e.cause(), e.fix());
    }
    if (params == null) {
      throw forbidden("Topic '" + Texts.echo(topic, 120) + "' does not name the params "
          + channel.ref().params() + " of channel '" + name + "'.",
          "Spell the topic with ChannelRef.topic(...): one percent-encoded value per param, in order.");
    }
    if (!channel.ref().topic(params).equals(topic)) {
      throw forbidden("Topic '" + Texts.echo(topic, 120) + "' is not spelled as ChannelRef.topic spells it.",
          "Percent-encode each param with upper-case hex and only where needed, as ChannelRef.topic(...) does.");
    }
    return new ResolvedTopic(channel, topic, params);
  }

  /**
   * Checks the channel's policy for {@code actor}; a policy that throws refuses (fail closed) and is logged.
   *
   * @throws ChannelException {@code X_FORBIDDEN} when the policy refuses or fails
   */
  void admit(Actor actor, String what) {
    boolean admitted;
    try {
      admitted = channel.policy().admits(actor, params);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "The policy of channel '" + channel.name() + "' failed; refused", e);
      throw new ChannelException(ErrorCode.X_FORBIDDEN, "The policy of channel '" + channel.name()
          + "' failed while deciding " + what + " '" + Texts.echo(topic, 120) + "'; the node refused.",
          "Try again later; the app's policy threw, and the node's log names the failure.");
    }
    if (!admitted) {
      throw new ChannelException(ErrorCode.X_FORBIDDEN, "The policy of channel '" + channel.name()
          + "' refuses this actor " + what + " '" + Texts.echo(topic, 120) + "'.",
          "Sign in as an actor the channel's policy admits for these params.");
    }
  }

  private static ChannelException forbidden(String cause, String fix) {
    return new ChannelException(ErrorCode.X_TOPIC_FORBIDDEN, cause, fix);
  }
}

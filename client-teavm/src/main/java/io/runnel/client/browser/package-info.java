/**
 * The client's browser side: the only package that imports TeaVM's JSO. It implements what the plain Java logic
 * asks of its host; for now the number text the DSL reads and writes ({@link io.runnel.client.browser.JsNumberText}).
 */
package io.runnel.client.browser;

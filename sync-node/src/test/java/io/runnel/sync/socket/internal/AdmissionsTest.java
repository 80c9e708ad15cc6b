package io.runnel.sync.socket.internal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** The client network an anonymous actor's caps count under. */
class AdmissionsTest {

  @Test
  void aClientNetworkIsAnIpv4AddressExactlyOrAnIpv6Slash64() throws Exception {
    assertAll(
        () -> assertEquals("203.0.113.7", Admissions.network(InetAddress.getByName("203.0.113.7"))),
        () -> assertEquals("2001:db8:1:2::/64", Admissions.network(InetAddress.getByName("2001:db8:1:2:aaaa::1"))),
        () -> assertEquals(Admissions.network(InetAddress.getByName("2001:db8:1:2::5")),
            Admissions.network(InetAddress.getByName("2001:db8:1:2:ffff:ffff:ffff:ffff")), "one /64, one network"),
        () -> assertEquals("?", Admissions.network(null)));
  }
}

package io.runnel.protocol;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class PositionTest {

  @Test
  void aPositionIsItsCommitLsnThenItsRowIn24LowerCaseHex() {
    Position p = Position.parse("00000016b374d8480000002a");
    assertAll(
        () -> assertEquals(Lsn.parse("16/B374D848"), p.lsn()),
        () -> assertEquals(42, p.row()),
        () -> assertEquals("00000016b374d8480000002a", p.toString()),
        () -> assertEquals(p, Lsn.parse("16/B374D848").row(42)),
        () -> assertFalse(p.isPoint()),
        () -> assertTrue(Lsn.parse("16/B374D848").point().isPoint()),
        () -> assertEquals("000000000000000000000000", Position.ZERO.toString()),
        () -> assertEquals("ffffffffffffffffffffffff", new Position(new Lsn(-1), -1).toString()));
  }

  @Test
  void onlyExactly24LowerCaseHexDigitsAreAPosition() {
    for (String bad : new String[] {"", "0", "00000016b374d84800000001 ", "00000016B374D84800000001",
        "00000016b374d8480000000g", "0000016b374d84800000001", "000000016b374d84800000001", "+0000016b374d84800000001",
        "-0000016b374d84800000001", "00000016b374d848/0000001"}) {
      assertAll(bad,
          () -> assertNull(Position.tryParse(bad)),
          () -> assertThrows(IllegalArgumentException.class, () -> Position.parse(bad)));
    }
  }

  @Test
  void aPointSortsBeforeEveryRowOfItsCommitAndAfterEveryEarlierCommit() {
    Lsn l = Lsn.parse("16/B374D848");
    Position earlier = Lsn.parse("16/B374D847").row(Integer.MAX_VALUE);
    assertAll(
        () -> assertTrue(l.point().isBefore(l.row(1))),
        () -> assertTrue(l.point().isAfter(earlier)),
        () -> assertTrue(l.row(2).reached(l.row(2))),
        () -> assertFalse(l.row(1).reached(l.row(2))));
  }

  @Property
  void positionsOrderAsTheirTextsDo(@ForAll long a, @ForAll int rowA, @ForAll long b, @ForAll int rowB) {
    Position x = new Position(new Lsn(a), rowA);
    Position y = new Position(new Lsn(b), rowB);
    assertEquals(Integer.signum(x.toString().compareTo(y.toString())), Integer.signum(x.compareTo(y)),
        x + " against " + y);
  }

  @Property
  void aPositionReadsBackFromItsText(@ForAll long lsn, @ForAll int row) {
    Position p = new Position(new Lsn(lsn), row);
    assertEquals(p, Position.parse(p.toString()));
  }

  @Test
  void lsnsParseAsPostgresPrintsThemAndCompareUnsigned() {
    assertAll(
        () -> assertEquals(0x16B374D848L, Lsn.parse("16/B374D848").value()),
        () -> assertEquals(0x16B374D848L, Lsn.parse("16/b374d848").value()),
        () -> assertEquals(0x16B374D848L, Lsn.parse("00000016b374d848").value()),
        () -> assertEquals(-1L, Lsn.parse("FFFFFFFF/FFFFFFFF").value()),
        () -> assertEquals("FFFFFFFF/FFFFFFFF", new Lsn(-1).toString()),
        () -> assertTrue(Lsn.parse("FFFFFFFF/0").compareTo(Lsn.parse("1/0")) > 0, "compared unsigned"));
    for (String bad : new String[] {"", "/", "1/", "/1", "+1/0", "-1/0", "1/-0", "123456789/0", "0/123456789",
        "1/0/0", "g/0", "00000016b374d84", "00000016b374d8480", "0000001-b374d848"}) {
      assertThrows(IllegalArgumentException.class, () -> Lsn.parse(bad), bad);
    }
  }
}

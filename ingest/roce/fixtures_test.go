package roce

// Byte fixtures: whole Ethernet frames, generated with a short Python
// script (struct + zlib) rather than by this package, so that decoding
// and the ICRC are checked against an independent encoder.

// writeFirstHex is an RC RDMA WRITE FIRST from 10.0.0.1 to 10.0.0.2, DSCP 26 ECT(0),
// UDP source port 0xc123, dest QP 0x45, PSN 0xabcd, M set, RETH (VA
// 0x7f0000001000, R_Key 0x1234abcd, length 4096), 16 payload bytes 00..0f;
// its ICRC was computed with Python's zlib.crc32, independently of this
// package. It is a 90-byte frame:
//
//	0000  02 00 00 00 00 02 02 00 00 00 00 01 08 00 45 6a
//	0010  00 4c 12 34 40 00 40 11 14 01 0a 00 00 01 0a 00
//	0020  00 02 c1 23 12 b7 00 38 00 00 06 40 ff ff 00 00
//	0030  00 45 00 00 ab cd 00 00 7f 00 00 00 10 00 12 34
//	0040  ab cd 00 00 10 00 00 01 02 03 04 05 06 07 08 09
//	0050  0a 0b 0c 0d 0e 0f d7 fa 16 56
const writeFirstHex = "0200000000020200000000010800456a004c12344000401114010a0000010a000002c12312b7003800000640ffff000000450000abcd00007f00000010001234abcd00001000000102030405060708090a0b0c0d0e0fd7fa1656"

// ackHex is an RC ACKNOWLEDGE on VLAN 100 priority 3, dest QP 0x48, PSN 42, AETH
// syndrome 0x06 (ACK, 6 credits), MSN 3. It is a 66-byte frame:
//
//	0000  02 00 00 00 00 02 02 00 00 00 00 01 81 00 60 64
//	0010  08 00 45 68 00 30 12 34 40 00 40 11 14 1f 0a 00
//	0020  00 01 0a 00 00 02 c1 23 12 b7 00 1c 00 00 11 40
//	0030  ff ff 00 00 00 48 00 00 00 2a 06 00 00 03 37 66
//	0040  8e 5d
const ackHex = "02000000000202000000000181006064080045680030123440004011141f0a0000010a000002c12312b7001c00001140ffff000000480000002a0600000337668e5d"

// sendLastImmHex is an RC SEND LAST WITH IMMEDIATE, CE-marked, SE and AckReq set, pad
// count 2, P_Key 0x8001, dest QP 0x123456, PSN 0xffffff, ImmDt 0xdeadbeef,
// payload "abcdef" plus 2 bytes of padding. It is a 70-byte frame:
//
//	0000  02 00 00 00 00 02 02 00 00 00 00 01 08 00 45 6b
//	0010  00 38 12 34 40 00 40 11 14 14 0a 00 00 01 0a 00
//	0020  00 02 c1 23 12 b7 00 24 00 00 03 e0 80 01 00 12
//	0030  34 56 80 ff ff ff de ad be ef 61 62 63 64 65 66
//	0040  00 00 0d ff fa 3a
const sendLastImmHex = "0200000000020200000000010800456b003812344000401114140a0000010a000002c12312b70024000003e080010012345680ffffffdeadbeef61626364656600000dfffa3a"

// cnpHex is a RoCEv2 CNP (opcode 0x81) with BECN, dest QP 0xd2, PSN 0, DSCP 48
// ECT(0), UDP source port 0 and checksum 0, and its 16 reserved bytes, the
// shape a ConnectX NIC sends. It is a 74-byte frame:
//
//	0000  02 00 00 00 00 02 02 00 00 00 00 01 08 00 45 c2
//	0010  00 3c 12 34 40 00 40 11 13 b9 0a 00 00 01 0a 00
//	0020  00 02 00 00 12 b7 00 28 00 00 81 00 ff ff 40 00
//	0030  00 d2 00 00 00 00 00 00 00 00 00 00 00 00 00 00
//	0040  00 00 00 00 00 00 72 d6 45 96
const cnpHex = "020000000002020000000001080045c2003c12344000401113b90a0000010a000002000012b7002800008100ffff400000d2000000000000000000000000000000000000000072d64596"

// udSendOnly6Hex is a UD SEND ONLY over IPv6 (traffic class 2, flow label 0x12345)
// with a DETH (Q_Key 0x80010000, source QP 0xc), dest QP 1, PSN 16,
// payload "hello ud". It is a 94-byte frame:
//
//	0000  02 00 00 00 00 02 02 00 00 00 00 01 86 dd 60 21
//	0010  23 45 00 28 11 40 fd 00 00 00 00 00 00 00 00 00
//	0020  00 00 00 00 00 01 fd 00 00 00 00 00 00 00 00 00
//	0030  00 00 00 00 00 02 c1 23 12 b7 00 28 00 00 64 00
//	0040  ff ff 00 00 00 01 00 00 00 10 80 01 00 00 00 00
//	0050  00 0c 68 65 6c 6c 6f 20 75 64 dc a1 75 eb
const udSendOnly6Hex = "02000000000202000000000186dd6021234500281140fd000000000000000000000000000001fd000000000000000000000000000002c12312b7002800006400ffff0000000100000010800100000000000c68656c6c6f207564dca175eb"

// nakHex is an RC NAK (AETH syndrome 0x60: NAK, PSN sequence error), dest QP
// 0x48, PSN 16, MSN 7. It is a 62-byte frame:
//
//	0000  02 00 00 00 00 02 02 00 00 00 00 01 08 00 45 6a
//	0010  00 30 12 34 40 00 40 11 14 1d 0a 00 00 01 0a 00
//	0020  00 02 c1 23 12 b7 00 1c 00 00 11 40 ff ff 00 00
//	0030  00 48 00 00 00 10 60 00 00 07 d6 aa 3f af
const nakHex = "0200000000020200000000010800456a0030123440004011141d0a0000010a000002c12312b7001c00001140ffff000000480000001060000007d6aa3faf"

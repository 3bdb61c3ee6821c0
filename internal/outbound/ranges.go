package outbound

import (
	"net/netip"
)

// specialPurpose is every range of the IANA IPv4 and IPv6 Special-Purpose
// Address Registries (RFC 6890 and its updates), plus a few deprecated
// ranges a stack may still route somewhere local. The whole registry is
// refused, including the few entries IANA marks "globally reachable" (AS112,
// AMT, TURN anycast): no webhook receiver lives there, and a short, complete
// list is easier to trust than a hand-picked one.
//
// Two ranges carry an IPv4 address and are decided by it instead (see
// Forbidden): IPv4-mapped ::ffff:0:0/96 and the well-known NAT64 prefix
// 64:ff9b::/96.
var specialPurpose = []struct {
	prefix netip.Prefix
	name   string
}{
	// IPv4
	{pfx("0.0.0.0/8"), "this network"},
	{pfx("10.0.0.0/8"), "private use"},
	{pfx("100.64.0.0/10"), "shared address space (carrier-grade NAT, cloud metadata)"},
	{pfx("127.0.0.0/8"), "loopback"},
	{pfx("169.254.0.0/16"), "link local"},
	{pfx("172.16.0.0/12"), "private use"},
	{pfx("192.0.0.0/24"), "IETF protocol assignments"},
	{pfx("192.0.2.0/24"), "documentation (TEST-NET-1)"},
	{pfx("192.31.196.0/24"), "AS112-v4"},
	{pfx("192.52.193.0/24"), "AMT"},
	{pfx("192.88.99.0/24"), "deprecated 6to4 relay anycast"},
	{pfx("192.168.0.0/16"), "private use"},
	{pfx("192.175.48.0/24"), "direct delegation AS112 service"},
	{pfx("198.18.0.0/15"), "benchmarking"},
	{pfx("198.51.100.0/24"), "documentation (TEST-NET-2)"},
	{pfx("203.0.113.0/24"), "documentation (TEST-NET-3)"},
	{pfx("224.0.0.0/4"), "multicast"},
	{pfx("240.0.0.0/4"), "reserved (and limited broadcast 255.255.255.255)"},

	// IPv6
	{pfx("::/128"), "unspecified"},
	{pfx("::1/128"), "loopback"},
	{pfx("::/96"), "deprecated IPv4-compatible"},
	{pfx("::ffff:0:0:0/96"), "IPv4-translated (SIIT)"},
	{pfx("64:ff9b:1::/48"), "local-use IPv4/IPv6 translation"},
	{pfx("100::/64"), "discard only"},
	{pfx("100:0:0:1::/64"), "dummy IPv6 prefix"},
	{pfx("2001::/23"), "IETF protocol assignments (Teredo 2001::/32, benchmarking, ORCHID)"},
	{pfx("2001:db8::/32"), "documentation"},
	{pfx("2002::/16"), "6to4"},
	{pfx("2620:4f:8000::/48"), "direct delegation AS112 service"},
	{pfx("3fff::/20"), "documentation"},
	{pfx("5f00::/16"), "segment routing (SRv6) SIDs"},
	{pfx("fc00::/7"), "unique local"},
	{pfx("fe80::/10"), "link local"},
	{pfx("fec0::/10"), "deprecated site local"},
	{pfx("ff00::/8"), "multicast"},
}

var (
	ipv4Mapped = pfx("::ffff:0:0/96")
	nat64      = pfx("64:ff9b::/96")
)

func pfx(s string) netip.Prefix { return netip.MustParsePrefix(s) }

// Forbidden reports whether outbound connections to ip are refused: it lies
// in a special-purpose range, or it embeds (IPv4-mapped, NAT64) an IPv4
// address that does. An invalid address is forbidden.
func Forbidden(ip netip.Addr) bool {
	_, refused := Range(ip)
	return refused
}

// Range names the special-purpose range ip falls in ("" and false when it
// is an ordinary global address).
func Range(ip netip.Addr) (string, bool) {
	if !ip.IsValid() {
		return "invalid address", true
	}
	ip = ip.WithZone("")
	if ipv4Mapped.Contains(ip) || nat64.Contains(ip) {
		b := ip.As16()
		ip = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	}
	for _, r := range specialPurpose {
		if r.prefix.Contains(ip) {
			return r.name, true
		}
	}
	return "", false
}

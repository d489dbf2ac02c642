import { describe, expect, test } from 'bun:test'
import { addressGroup, createClientAddress, type RequestPeer } from '@/lib/client-address'

const from = (address: string): RequestPeer => ({ requestIP: () => ({ address }) })
const forwarded = (value?: string) => new Request('http://ferry.test/v1/models', { headers: value ? { 'x-forwarded-for': value } : {} })

describe('the client address', () => {
	test('without trusted proxies it is the connecting peer, whatever X-Forwarded-For says', () => {
		const clientAddress = createClientAddress([])
		expect(clientAddress(from('203.0.113.9'), forwarded('198.51.100.1'))).toBe('203.0.113.9')
	})

	test('through a trusted proxy it is the nearest forwarded address that is not a trusted proxy', () => {
		const clientAddress = createClientAddress(['127.0.0.1', '10.0.0.0/8'])
		expect(clientAddress(from('127.0.0.1'), forwarded('198.51.100.1'))).toBe('198.51.100.1')
		// The client wrote its own header first; the proxies appended the real hops after it.
		expect(clientAddress(from('127.0.0.1'), forwarded('1.2.3.4, 198.51.100.1, 10.1.2.3'))).toBe('198.51.100.1')
	})

	test('a peer that is not a trusted proxy cannot choose its address with the header', () => {
		const clientAddress = createClientAddress(['10.0.0.0/8'])
		expect(clientAddress(from('203.0.113.9'), forwarded('10.0.0.1'))).toBe('203.0.113.9')
	})

	test('a trusted proxy without the header, or with a hop that is not an address, gives the last hop it could read', () => {
		const clientAddress = createClientAddress(['127.0.0.1'])
		expect(clientAddress(from('127.0.0.1'), forwarded())).toBe('127.0.0.1')
		expect(clientAddress(from('127.0.0.1'), forwarded('198.51.100.1, unknown'))).toBe('127.0.0.1')
		expect(clientAddress(from('127.0.0.1'), forwarded('garbage, 198.51.100.7'))).toBe('198.51.100.7')
	})

	test('IPv4 peers of a dual-stack listener are compared and reported as IPv4', () => {
		const clientAddress = createClientAddress(['127.0.0.1'])
		expect(clientAddress(from('::ffff:127.0.0.1'), forwarded('::ffff:198.51.100.1'))).toBe('198.51.100.1')
		expect(createClientAddress([])(from('::ffff:203.0.113.9'), forwarded())).toBe('203.0.113.9')
	})

	test('a request with no peer (in-process calls) is "local"', () => {
		expect(createClientAddress(['127.0.0.1'])(null, forwarded('198.51.100.1'))).toBe('local')
	})

	test('per-address limits count an IPv4 address alone and an IPv6 address by its /64 network', () => {
		expect(addressGroup('198.51.100.7')).toBe('198.51.100.7')
		expect(addressGroup('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64')
		expect(addressGroup('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64')
		expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64')
		expect(addressGroup('::1')).toBe('0:0:0:0::/64')
		expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
		expect(addressGroup('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64')
		expect(addressGroup('local')).toBe('local')
	})
})

import type { StatementInput } from './schema.js';

/** The API document before section 1, and section 1 (what the service does). */
export const statements: StatementInput[] = [
  {
    id: 'A0-01',
    kind: 'informative',
    text: 'This document covers the whole of the service as far as it is specified: the purpose of the service, its resources, key and order rules, endpoints, authentication, events, errors, limits and versioning.',
    why: 'says what the document covers; no behaviour',
  },
  {
    id: 'A0-02',
    kind: 'server',
    text: 'All paths are relative to {base_url}/api/on-demand/v1.',
    rules: ['AUTH-01', 'READ-12', 'READ-15'],
  },
  {
    id: 'A0-03',
    kind: 'informative',
    text: 'Where a detail is missing it is marked "not shown".',
    why: 'how to read the document: a "not shown" detail is the reference dialect\'s (contract section 2)',
  },
  {
    id: 'A1-01',
    kind: 'informative',
    text: 'The service is an HTTP API for partners who connect their store to a catalog of products.',
    why: "describes the service's purpose; the endpoints of section 4 are its statements",
  },
  {
    id: 'A1-02',
    kind: 'informative',
    text: 'Through it a partner:',
    why: 'introduces the list of what a partner does; each item is a statement of its own',
  },
  { id: 'A1-03', kind: 'server', text: 'reads the catalog;', rules: ['READ-07'] },
  { id: 'A1-04', kind: 'server', text: 'requests price quotes;', rules: ['READ-10'] },
  {
    id: 'A1-05',
    kind: 'server',
    text: 'places and cancels orders;',
    rules: ['ORDER-16', 'CANCEL-01'],
  },
  {
    id: 'A1-06',
    kind: 'server',
    text: 'reads orders, their shipments and invoices;',
    rules: ['READ-15', 'READ-16', 'READ-19'],
  },
  { id: 'A1-07', kind: 'server', text: 'reads the partner account;', rules: ['READ-01'] },
  {
    id: 'A1-08',
    kind: 'server',
    text: 'manages webhook endpoints and reads events.',
    rules: ['HOOK-01', 'READ-20'],
  },
  {
    id: 'A1-09',
    kind: 'server',
    text: 'The service has two modes, test and live.',
    rules: ['KEY-07', 'MODE-01', 'MODE-02'],
  },
  {
    id: 'A1-10',
    kind: 'server',
    text: 'Objects belong to exactly one mode.',
    rules: ['MODE-01', 'MODE-02', 'IDEM-19', 'HOOK-02', 'MODE-07'],
  },
  {
    id: 'A1-11',
    kind: 'server',
    text: 'Test keys see only test objects and live keys see only live objects.',
    rules: ['MODE-01', 'MODE-02', 'IDEM-19', 'ORDER-20', 'MODE-07'],
    scope: { scope: 'per mode', forbids: ['MODE-01', 'MODE-02'], allows: ['ORDER-20'] },
  },
  {
    id: 'A1-12',
    kind: 'unobservable',
    text: 'Live keys place real orders.',
    why: 'that a live order is produced, shipped and paid for in the world happens outside the API; what an exchange shows (a live key is served and its orders are live objects) is A1-11',
  },
  {
    id: 'A1-13',
    kind: 'server',
    text: 'Orders are limited to addresses in the US and to products that do not ship by freight.',
    rules: ['ORDER-08', 'ORDER-09', 'ORDER-16', 'ORDER-17'],
  },
  {
    id: 'A1-14',
    kind: 'informative',
    text: 'Full product scope and fulfilment process: not shown.',
    why: 'marks what the document leaves open',
  },
];

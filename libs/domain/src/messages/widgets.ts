import { badRequest, DomainError } from '../shared/domain-error.js';
import { isDict, isPyInt, pyStrip, pySplitLines, pythonJsonDumps, PY_WHITESPACE } from './python-json.js';

/*
 * Widgets (Zulip's zerver/lib/widget.py and the widget validators of zerver/lib/validator.py):
 * a message whose content starts with `/poll` or `/todo`, or that is sent with a
 * `widget_content`, gets a first submessage (`msg_type` "widget") describing the widget; its
 * readers then attach submessages (votes, options, tasks) with POST /submessage.
 */

/** A submessage as stored and shown (Zulip's SubMessage row). */
export interface Submessage {
  id: number;
  messageId: number;
  senderId: number;
  msgType: string;
  content: string;
}

/** The `msg_type` of a widget's first submessage (and of what clients attach to it). */
export const WIDGET_MSG_TYPE = 'widget';

/** Zulip's MAX_IDX (as its client widgets): the largest option index and task key. */
export const MAX_WIDGET_IDX = 1000;

/**
 * Bounds of POST /submessage's `content` and `msg_type` and of `widget_content` (code points):
 * Zulip sets none (its request size limit aside); a submessage is kept no longer than a message
 * (MAX_MESSAGE_LENGTH), and the clients' only type is "widget".
 */
export const MAX_SUBMESSAGE_LENGTH = 10_000;
export const MAX_SUBMESSAGE_TYPE_LENGTH = 100;

/** A widget's description before it is written as the first submessage's content. */
export interface WidgetContent {
  widgetType: string;
  extraData: unknown;
}

/** A JSON text as the HTTP layer parsed it: its value, or `ok: false` when it is not JSON. */
export type JsonInput = { ok: true; value: unknown } | { ok: false };

const FIRST_SPACE = new RegExp(`[${PY_WHITESPACE}]`);
const LIST_MARKER = new RegExp(`^[${PY_WHITESPACE}]*[-*]?[${PY_WHITESPACE}]*`);
/** A line as a poll option or a task: stripped, a leading `-` or `*` (list syntax) removed. */
const itemOf = (line: string): string => pyStrip(line).replace(LIST_MARKER, '');

/**
 * Zulip's get_widget_data: `/poll` or `/todo` as the content's first word (up to the first
 * whitespace) makes a widget; the rest of the first line is the question or the title, each
 * later non-blank line an option, or a task with an optional description after the first `: `.
 */
export function widgetFromContent(content: string): WidgetContent | null {
  const end = content.search(FIRST_SPACE);
  const first = end < 0 ? content : content.slice(0, end);
  if (first !== '/poll' && first !== '/todo') return null;
  const lines = pySplitLines(content.slice(first.length));
  const heading = lines.length > 0 && lines[0] !== '' ? pyStrip(lines.shift()!) : '';
  const items = lines.map(itemOf).filter((item) => item.length > 0);
  if (first === '/poll') return { widgetType: 'poll', extraData: { question: heading, options: items } };
  const tasks = items.map((item) => {
    const at = item.indexOf(': ');
    return at < 0 ? { task: pyStrip(item), desc: '' } : { task: pyStrip(item.slice(0, at)), desc: pyStrip(item.slice(at + 2)) };
  });
  return { widgetType: 'todo', extraData: { task_list_title: heading, tasks } };
}

/** The first submessage's content, as Zulip writes it (`json.dumps({widget_type, extra_data})`). */
export const widgetSubmessageContent = (w: WidgetContent): string => pythonJsonDumps({ widget_type: w.widgetType, extra_data: w.extraData });

// --- Zulip's validators (check_string, check_dict, ...), with their texts ------------------------

type Check = (varName: string, value: unknown) => void;

const checkString: Check = (name, v) => {
  if (typeof v !== 'string') throw badRequest(`${name} is not a string`);
};
const checkBool: Check = (name, v) => {
  if (typeof v !== 'boolean') throw badRequest(`${name} is not a boolean`);
};
const checkInt: Check = (name, v) => {
  if (!isPyInt(v)) throw badRequest(`${name} is not an integer`);
};
const checkIntIn =
  (values: readonly number[]): Check =>
  (name, v) => {
    checkInt(name, v);
    if (!values.includes(Number(v))) throw badRequest(`Invalid ${name}`);
  };
const checkIntRange =
  (low: number, high: number): Check =>
  (name, v) => {
    checkInt(name, v);
    if (Number(v) < low) throw badRequest(`${name} is too small`);
    if (Number(v) > high) throw badRequest(`${name} is too large`);
  };
const checkList =
  (item: Check): Check =>
  (name, v) => {
    if (!Array.isArray(v)) throw badRequest(`${name} is not a list`);
    v.forEach((e, i) => item(`${name}[${i}]`, e));
  };

/** check_dict (other keys allowed) or, with `only`, check_dict_only: the listed keys in order, then no others. */
const checkDict =
  (required: readonly [string, Check][], only = false): Check =>
  (name, v) => {
    if (!isDict(v)) throw badRequest(`${name} is not a dict`);
    for (const [key, check] of required) {
      if (!Object.hasOwn(v, key)) throw badRequest(`${key} key is missing from ${name}`);
      check(`${name}["${key}"]`, v[key]);
    }
    if (!only) return;
    const extra = Object.keys(v).filter((k) => !required.some(([key]) => key === k));
    if (extra.length > 0) throw badRequest(`Unexpected arguments: ${extra.join(', ')}`);
  };

/** A value in a message text: strings as they are, anything else as JSON. */
const shown = (v: unknown): string => (typeof v === 'string' ? v : pythonJsonDumps(v));

const ZFORM_CHOICES = checkDict([
  ['type', checkString],
  ['heading', checkString],
  ['choices', checkList(checkDict([['short_name', checkString], ['long_name', checkString], ['reply', checkString]]))],
]);

const widgetsError = (e: unknown): unknown => (e instanceof DomainError ? badRequest(`Widgets: ${e.msg}`) : e);

/**
 * Zulip's check_widget_content for the `widget_content` of POST /messages, with its "Widgets: "
 * prefix: only a zform of `choices` (the widget bots send) is accepted.
 */
export function checkWidgetContent(input: JsonInput): WidgetContent {
  if (!input.ok) throw badRequest('Widgets: API programmer sent invalid JSON content');
  try {
    const v = input.value;
    if (!isDict(v)) throw badRequest('widget_content is not a dict');
    if (!Object.hasOwn(v, 'widget_type')) throw badRequest('widget_type is not in widget_content');
    if (!Object.hasOwn(v, 'extra_data')) throw badRequest('extra_data is not in widget_content');
    const extra = v.extra_data;
    if (!isDict(extra)) throw badRequest('extra_data is not a dict');
    if (v.widget_type !== 'zform') throw badRequest(`unknown widget type: ${shown(v.widget_type)}`);
    if (!Object.hasOwn(extra, 'type')) throw badRequest('zform is missing type field');
    if (extra.type !== 'choices') throw badRequest(`unknown zform type: ${shown(extra.type)}`);
    ZFORM_CHOICES('extra_data', extra);
    return { widgetType: 'zform', extraData: extra };
  } catch (e) {
    throw widgetsError(e);
  }
}

/** Zulip's validate_poll_data: votes, new options, and (by the poll's author) the question. */
export function validatePollData(data: unknown, isWidgetAuthor: boolean): void {
  checkDict([['type', checkString]])('poll data', data);
  const type = (data as { type: string }).type;
  if (type === 'vote') return checkDict([['type', checkString], ['key', checkString], ['vote', checkIntIn([1, -1])]], true)('poll data', data);
  if (type === 'question') {
    if (!isWidgetAuthor) throw badRequest("You can't edit a question unless you are the author.");
    return checkDict([['type', checkString], ['question', checkString]], true)('poll data', data);
  }
  if (type === 'new_option') {
    return checkDict([['type', checkString], ['option', checkString], ['idx', checkIntRange(0, MAX_WIDGET_IDX)]], true)('poll data', data);
  }
  throw badRequest(`Unknown type for poll data: ${type}`);
}

/** Zulip's validate_todo_data: new tasks, struck tasks, and (by the list's author) the title. */
export function validateTodoData(data: unknown, isWidgetAuthor: boolean): void {
  checkDict([['type', checkString]])('todo data', data);
  const type = (data as { type: string }).type;
  if (type === 'new_task') {
    const fields: [string, Check][] = [['type', checkString], ['key', checkIntRange(0, MAX_WIDGET_IDX)], ['task', checkString], ['desc', checkString], ['completed', checkBool]];
    return checkDict(fields, true)('todo data', data);
  }
  if (type === 'strike') return checkDict([['type', checkString], ['key', checkString]], true)('todo data', data);
  if (type === 'new_task_list_title') {
    if (!isWidgetAuthor) throw badRequest("You can't edit the task list title unless you are the author.");
    return checkDict([['type', checkString], ['title', checkString]], true)('todo data', data);
  }
  throw badRequest(`Unknown type for todo data: ${type}`);
}

/**
 * Zulip's get_widget_type: the `widget_type` of the message's first widget submessage, when its
 * content is a JSON object that has one (null otherwise).
 */
export function widgetTypeOf(firstWidgetContent: string | null): unknown {
  if (firstWidgetContent === null) return null;
  try {
    const data: unknown = JSON.parse(firstWidgetContent);
    return isDict(data) && Object.hasOwn(data, 'widget_type') ? data.widget_type : null;
  } catch {
    return null;
  }
}

/** What POST /submessage reads about the message's submessages (none are read for a message without any). */
export interface SubmessageFacts {
  /** The content of the message's first `widget` submessage, if any. */
  firstWidgetContent: string | null;
  /** Whether the message's sender attached a submessage to it (its widget, for a widget message). */
  senderHasSubmessage: boolean;
}

/**
 * Zulip's process_submessage after the access check, in its order: only the message's sender
 * may attach the first submessage (verify_submessage_sender); the content must be JSON; a poll's
 * or a todo list's submessages must have their shape (a submessage of another message is stored
 * as sent).
 */
export function checkSubmessage(req: { actorId: number; messageSenderId: number; data: JsonInput }, facts: SubmessageFacts): void {
  if (req.actorId !== req.messageSenderId && !facts.senderHasSubmessage) throw badRequest('You cannot attach a submessage to this message.');
  if (!req.data.ok) throw badRequest('Invalid json for submessage');
  const widgetType = widgetTypeOf(facts.firstWidgetContent);
  const isWidgetAuthor = req.actorId === req.messageSenderId;
  if (widgetType === 'poll') validatePollData(req.data.value, isWidgetAuthor);
  if (widgetType === 'todo') validateTodoData(req.data.value, isWidgetAuthor);
}

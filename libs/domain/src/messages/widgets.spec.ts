import { DomainError } from '../shared/domain-error.js';
import { pySplitLines, pyStrip, pythonFloatRepr, pythonJsonDumps } from './python-json.js';
import {
  checkSubmessage,
  checkWidgetContent,
  type JsonInput,
  validatePollData,
  validateTodoData,
  widgetFromContent,
  widgetSubmessageContent,
  widgetTypeOf,
} from './widgets.js';

/** How the HTTP layer hands over a JSON number written with a fraction or an exponent (its JsonFloat). */
class Float {
  constructor(readonly value: number) {}
}

const json = (value: unknown): JsonInput => ({ ok: true, value });
const refusal = (f: () => unknown): string | null => {
  try {
    f();
    return null;
  } catch (e) {
    if (e instanceof DomainError) return e.msg;
    throw e;
  }
};

describe('widgetFromContent (Zulip’s get_widget_data)', () => {
  it.each(['', '     ', 'this is an ordinary message', '/bogus_command', '/me shrugs', 'use /poll', ' /poll', '/pollster', '/poll-x', '/todos'])(
    'leaves %j alone',
    (content) => {
      expect(widgetFromContent(content)).toBeNull();
    },
  );

  it('reads a todo list: the first line’s rest is its title, each later non-blank line a task with an optional description', () => {
    expect(widgetFromContent('/todo')).toEqual({ widgetType: 'todo', extraData: { task_list_title: '', tasks: [] } });
    expect(widgetFromContent('/todo Title')).toEqual({ widgetType: 'todo', extraData: { task_list_title: 'Title', tasks: [] } });
    expect(widgetFromContent('/todo   School Work')).toEqual({ widgetType: 'todo', extraData: { task_list_title: 'School Work', tasks: [] } });
    expect(widgetFromContent('/todo\nTask')).toEqual({ widgetType: 'todo', extraData: { task_list_title: '', tasks: [{ task: 'Task', desc: '' }] } });
    const content = '/todo Example Task List Title\n\n    task without description\ntask: with description    \n\n - task as list : also with description';
    expect(widgetFromContent(content)).toEqual({
      widgetType: 'todo',
      extraData: {
        task_list_title: 'Example Task List Title',
        tasks: [
          { task: 'task without description', desc: '' },
          { task: 'task', desc: 'with description' },
          { task: 'task as list', desc: 'also with description' },
        ],
      },
    });
    // Only the first ": " separates; a colon without a space does not.
    expect(widgetFromContent('/todo\na: b: c\nat 10:30')).toMatchObject({ extraData: { tasks: [{ task: 'a', desc: 'b: c' }, { task: 'at 10:30', desc: '' }] } });
  });

  it('reads a poll: question, then options without blank lines and list markers', () => {
    const content = '/poll What is your favorite color?\n\nRed\nGreen  \n\n   Blue\n - Yellow\n* Purple\n-Orange\n--Grey';
    expect(widgetFromContent(content)).toEqual({
      widgetType: 'poll',
      extraData: { question: 'What is your favorite color?', options: ['Red', 'Green', 'Blue', 'Yellow', 'Purple', 'Orange', '-Grey'] },
    });
    expect(widgetFromContent('/poll')).toEqual({ widgetType: 'poll', extraData: { question: '', options: [] } });
    // Blank after the command: no question, the next lines are options.
    expect(widgetFromContent('/poll   \nyes\nno')).toEqual({ widgetType: 'poll', extraData: { question: '', options: ['yes', 'no'] } });
    expect(widgetFromContent('/poll\r\nyes\r\nno')).toEqual({ widgetType: 'poll', extraData: { question: '', options: ['yes', 'no'] } });
  });

  it('splits words and lines and strips as Python does (its whitespace and line boundaries, not JavaScript’s)', () => {
    expect(widgetFromContent('/poll\u00a0Q?')).toEqual({ widgetType: 'poll', extraData: { question: 'Q?', options: [] } });
    expect(widgetFromContent('/poll\u001fQ?')).toEqual({ widgetType: 'poll', extraData: { question: 'Q?', options: [] } });
    expect(widgetFromContent('/poll\ufeffQ?')).toBeNull(); // not whitespace in Python
    expect(widgetFromContent('/poll Q\u2028a\u0085b\u001cc')).toEqual({ widgetType: 'poll', extraData: { question: 'Q', options: ['a', 'b', 'c'] } });
    expect(pySplitLines('a\n\nb\n')).toEqual(['a', '', 'b']);
    expect(pySplitLines('')).toEqual([]);
    expect(pySplitLines('\n')).toEqual(['']);
    expect(pyStrip('\u3000 x \u001f')).toBe('x');
  });
});

describe('the widget’s first submessage (json.dumps of {widget_type, extra_data})', () => {
  it('is written as Python writes it: its separators, keys in Zulip’s order, ASCII only', () => {
    expect(widgetSubmessageContent(widgetFromContent('/poll Café?\n☕\n😀 "quoted" \\ back')!)).toBe(
      '{"widget_type": "poll", "extra_data": {"question": "Caf\\u00e9?", "options": ["\\u2615", "\\ud83d\\ude00 \\"quoted\\" \\\\ back"]}}',
    );
    expect(widgetSubmessageContent(widgetFromContent('/todo\nx: y')!)).toBe(
      '{"widget_type": "todo", "extra_data": {"task_list_title": "", "tasks": [{"task": "x", "desc": "y"}]}}',
    );
  });

  it('writes any JSON value as json.dumps does', () => {
    expect(pythonJsonDumps({ a: [1, true, null, 'x\t\u0001\u007f'], b: {}, c: [] })).toBe('{"a": [1, true, null, "x\\t\\u0001\\u007f"], "b": {}, "c": []}');
    expect(pythonJsonDumps([new Float(1), new Float(0.5), new Float(1e16), new Float(1e-5), new Float(-0), 2 ** 64])).toBe(
      '[1.0, 0.5, 1e+16, 1e-05, -0.0, 18446744073709551616]',
    );
  });

  it.each([
    [1, '1.0'],
    [0, '0.0'],
    [123.456, '123.456'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e+16'],
    [1.2345678901234568e17, '1.2345678901234568e+17'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [-2.5e-7, '-2.5e-07'],
    [1e300, '1e+300'],
    [Infinity, 'Infinity'],
  ])('repr(%d) is %s', (x, text) => {
    expect(pythonFloatRepr(x)).toBe(text);
  });
});

describe('checkWidgetContent (Zulip’s check_widget_content, for widget_content)', () => {
  it.each([
    [5, 'widget_content is not a dict'],
    [[], 'widget_content is not a dict'],
    [{}, 'widget_type is not in widget_content'],
    [{ widget_type: 'whatever' }, 'extra_data is not in widget_content'],
    [{ widget_type: 'zform', extra_data: 4 }, 'extra_data is not a dict'],
    [{ widget_type: 'zform', extra_data: new Float(4) }, 'extra_data is not a dict'],
    [{ widget_type: 'bogus', extra_data: {} }, 'unknown widget type: bogus'],
    [{ widget_type: 'poll', extra_data: {} }, 'unknown widget type: poll'],
    [{ widget_type: 7, extra_data: {} }, 'unknown widget type: 7'],
    [{ widget_type: 'zform', extra_data: {} }, 'zform is missing type field'],
    [{ widget_type: 'zform', extra_data: { type: 'bogus' } }, 'unknown zform type: bogus'],
    [{ widget_type: 'zform', extra_data: { type: 'choices' } }, 'heading key is missing from extra_data'],
    [{ widget_type: 'zform', extra_data: { type: 'choices', heading: 1 } }, 'extra_data["heading"] is not a string'],
    [{ widget_type: 'zform', extra_data: { type: 'choices', heading: 'h' } }, 'choices key is missing from extra_data'],
    [{ widget_type: 'zform', extra_data: { type: 'choices', heading: 'h', choices: 99 } }, 'extra_data["choices"] is not a list'],
    [{ widget_type: 'zform', extra_data: { type: 'choices', heading: 'h', choices: [99] } }, 'extra_data["choices"][0] is not a dict'],
    [{ widget_type: 'zform', extra_data: { type: 'choices', heading: 'h', choices: [{ long_name: 'foo', reply: 'bar' }] } }, 'short_name key is missing from extra_data["choices"][0]'],
    [
      { widget_type: 'zform', extra_data: { type: 'choices', heading: 'h', choices: [{ short_name: 'a', long_name: 'foo', reply: 5 }] } },
      'extra_data["choices"][0]["reply"] is not a string',
    ],
  ])('refuses %j: "Widgets: %s"', (value, msg) => {
    expect(refusal(() => checkWidgetContent(json(value)))).toBe(`Widgets: ${msg}`);
  });

  it('refuses what is not JSON, and takes a zform of choices (other keys kept) as the widget', () => {
    expect(refusal(() => checkWidgetContent({ ok: false }))).toBe('Widgets: API programmer sent invalid JSON content');
    const extra = { type: 'choices', heading: 'Options:', choices: [{ short_name: 'a', long_name: 'foo', reply: 'bar', x: new Float(2) }], more: 1 };
    const w = checkWidgetContent(json({ widget_type: 'zform', extra_data: extra, ignored: true }));
    expect(w).toEqual({ widgetType: 'zform', extraData: extra });
    expect(widgetSubmessageContent(w)).toBe(
      '{"widget_type": "zform", "extra_data": {"type": "choices", "heading": "Options:", "choices": [{"short_name": "a", "long_name": "foo", "reply": "bar", "x": 2.0}], "more": 1}}',
    );
  });
});

describe('validatePollData (Zulip’s validate_poll_data)', () => {
  it.each([
    ['', 'poll data is not a dict'],
    [[], 'poll data is not a dict'],
    [{}, 'type key is missing from poll data'],
    [{ type: 5 }, 'poll data["type"] is not a string'],
    [{ type: 'bogus' }, 'Unknown type for poll data: bogus'],
    [{ type: 'vote' }, 'key key is missing from poll data'],
    [{ type: 'vote', key: 1, vote: 1 }, 'poll data["key"] is not a string'],
    [{ type: 'vote', key: '1,1,' }, 'vote key is missing from poll data'],
    [{ type: 'vote', key: '1,1,', vote: 99 }, 'Invalid poll data["vote"]'],
    [{ type: 'vote', key: '1,1,', vote: new Float(1) }, 'poll data["vote"] is not an integer'],
    [{ type: 'vote', key: '1,1,', vote: '1' }, 'poll data["vote"] is not an integer'],
    [{ type: 'vote', key: '1,1', vote: 1, extra: 1, more: 2 }, 'Unexpected arguments: extra, more'],
    [{ type: 'question' }, 'question key is missing from poll data'],
    [{ type: 'question', question: 7 }, 'poll data["question"] is not a string'],
    [{ type: 'new_option' }, 'option key is missing from poll data'],
    [{ type: 'new_option', idx: 7, option: 999 }, 'poll data["option"] is not a string'],
    [{ type: 'new_option', idx: -1, option: 'pizza' }, 'poll data["idx"] is too small'],
    [{ type: 'new_option', idx: 1001, option: 'pizza' }, 'poll data["idx"] is too large'],
    [{ type: 'new_option', idx: 'bogus', option: 'maybe' }, 'poll data["idx"] is not an integer'],
    [{ type: 'new_option', idx: new Float(7), option: 'maybe' }, 'poll data["idx"] is not an integer'],
  ])('refuses %j: %s', (data, msg) => {
    expect(refusal(() => validatePollData(data, true))).toBe(msg);
  });

  it('takes votes, options and (the author’s) questions; only types are checked; booleans are integers, as in Python', () => {
    for (const data of [
      { type: 'vote', key: '1,1', vote: 1 },
      { type: 'vote', key: 'canned,0', vote: -1 },
      { type: 'vote', key: 'x', vote: true },
      { type: 'new_option', idx: 7, option: 'maybe' },
      { type: 'new_option', idx: 0, option: '' },
      { type: 'new_option', idx: 1000, option: 'last' },
      { type: 'question', question: "what's for dinner?" },
    ]) {
      expect(refusal(() => validatePollData(data, true))).toBeNull();
    }
    expect(refusal(() => validatePollData({ type: 'vote', key: 'x', vote: false }, true))).toBe('Invalid poll data["vote"]');
    expect(refusal(() => validatePollData({ type: 'question', question: 'Tabs?' }, false))).toBe("You can't edit a question unless you are the author.");
    // The author rule answers before the shape.
    expect(refusal(() => validatePollData({ type: 'question' }, false))).toBe("You can't edit a question unless you are the author.");
    expect(refusal(() => validatePollData({ type: 'vote', key: 'x', vote: 1 }, false))).toBeNull();
  });
});

describe('validateTodoData (Zulip’s validate_todo_data)', () => {
  it.each([
    [null, 'todo data is not a dict'],
    [{ type: 'bogus' }, 'Unknown type for todo data: bogus'],
    [{ type: 'new_task' }, 'key key is missing from todo data'],
    [{ type: 'new_task', key: 7, task: 7, desc: '', completed: false }, 'todo data["task"] is not a string'],
    [{ type: 'new_task', key: -1, task: 'eat', desc: '', completed: false }, 'todo data["key"] is too small'],
    [{ type: 'new_task', key: 1001, task: 'eat', desc: '', completed: false }, 'todo data["key"] is too large'],
    [{ type: 'new_task', key: 7, task: 'eat', desc: 1, completed: false }, 'todo data["desc"] is not a string'],
    [{ type: 'new_task', key: 7, task: 'eat', desc: '' }, 'completed key is missing from todo data'],
    [{ type: 'new_task', key: 7, task: 'eat', desc: '', completed: 0 }, 'todo data["completed"] is not a boolean'],
    [{ type: 'strike' }, 'key key is missing from todo data'],
    [{ type: 'strike', key: 999 }, 'todo data["key"] is not a string'],
    [{ type: 'strike', key: '5,9', by: 1 }, 'Unexpected arguments: by'],
    [{ type: 'new_task_list_title' }, 'title key is missing from todo data'],
  ])('refuses %j: %s', (data, msg) => {
    expect(refusal(() => validateTodoData(data, true))).toBe(msg);
  });

  it('takes new tasks, strikes and (the author’s) title', () => {
    expect(refusal(() => validateTodoData({ type: 'new_task', key: 7, task: 'eat', desc: '', completed: false }, false))).toBeNull();
    expect(refusal(() => validateTodoData({ type: 'strike', key: '5,9' }, false))).toBeNull();
    expect(refusal(() => validateTodoData({ type: 'new_task_list_title', title: 'School Work' }, true))).toBeNull();
    expect(refusal(() => validateTodoData({ type: 'new_task_list_title', title: 'School Work' }, false))).toBe(
      "You can't edit the task list title unless you are the author.",
    );
  });
});

describe('checkSubmessage (Zulip’s process_submessage after the access check)', () => {
  const poll = '{"widget_type": "poll", "extra_data": {"question": "", "options": []}}';
  const SENDER = 60;
  const READER = 61;

  it('lets only the sender attach the first submessage, before looking at the content', () => {
    const none = { firstWidgetContent: null, senderHasSubmessage: false };
    expect(refusal(() => checkSubmessage({ actorId: READER, messageSenderId: SENDER, data: { ok: false } }, none))).toBe(
      'You cannot attach a submessage to this message.',
    );
    expect(refusal(() => checkSubmessage({ actorId: SENDER, messageSenderId: SENDER, data: { ok: false } }, none))).toBe('Invalid json for submessage');
    // A message that is no widget takes any JSON from its sender, as sent.
    expect(refusal(() => checkSubmessage({ actorId: SENDER, messageSenderId: SENDER, data: json({ name: 'alice' }) }, none))).toBeNull();
  });

  it('checks the data by the widget’s type, the author rules with it', () => {
    const facts = { firstWidgetContent: poll, senderHasSubmessage: true };
    expect(refusal(() => checkSubmessage({ actorId: READER, messageSenderId: SENDER, data: { ok: false } }, facts))).toBe('Invalid json for submessage');
    expect(refusal(() => checkSubmessage({ actorId: READER, messageSenderId: SENDER, data: json({ type: 'vote', key: 'canned,0', vote: 1 }) }, facts))).toBeNull();
    expect(refusal(() => checkSubmessage({ actorId: READER, messageSenderId: SENDER, data: json({ type: 'question', question: 'x' }) }, facts))).toBe(
      "You can't edit a question unless you are the author.",
    );
    expect(refusal(() => checkSubmessage({ actorId: SENDER, messageSenderId: SENDER, data: json({ type: 'question', question: 'x' }) }, facts))).toBeNull();
    const todo = { firstWidgetContent: '{"widget_type": "todo"}', senderHasSubmessage: true };
    expect(refusal(() => checkSubmessage({ actorId: READER, messageSenderId: SENDER, data: json({ type: 'vote' }) }, todo))).toBe('Unknown type for todo data: vote');
    // A zform (or any other widget) is not checked.
    const zform = { firstWidgetContent: '{"widget_type": "zform", "extra_data": {}}', senderHasSubmessage: true };
    expect(refusal(() => checkSubmessage({ actorId: READER, messageSenderId: SENDER, data: json([1]) }, zform))).toBeNull();
  });

  it('reads the widget type as get_widget_type does', () => {
    expect(widgetTypeOf(poll)).toBe('poll');
    expect(widgetTypeOf(null)).toBeNull();
    expect(widgetTypeOf('bogus non-json')).toBeNull();
    expect(widgetTypeOf('{"bogus": 1}')).toBeNull();
    expect(widgetTypeOf('["widget_type"]')).toBeNull();
    expect(widgetTypeOf('{"widget_type": "todo"}')).toBe('todo');
  });
});

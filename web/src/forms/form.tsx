import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import {
  defaultFor,
  type Field,
  type FieldPath,
  fieldOf,
  type Issue,
  issuesByField,
  pathText,
  renameKey,
  setAt,
} from './fields.js';
import type { FormSchema, JsonValue } from './schema.js';

/** The entries of each kind a reference field can name: `{ 'ffrpg/weapon': [{id, name}] }`. */
export type RefChoices = Readonly<
  Record<string, readonly { readonly id: string; readonly name: string }[]>
>;

interface Context {
  readonly change: (path: FieldPath, next: JsonValue | undefined) => void;
  readonly replace: (path: FieldPath, next: JsonValue | undefined) => void;
  readonly issues: Map<string, Issue[]>;
  readonly refs: RefChoices;
  readonly hidden: ReadonlySet<string>;
  readonly trailing: readonly string[];
  readonly readOnly: ReadonlySet<string>;
  readonly value: JsonValue | undefined;
}

/**
 * Any content kind's form, from its JSON Schema: the one engine every kind of every system
 * uses. `value` is the draft as JSON; every edit hands the whole new draft to `onChange`.
 * `issues` (the server's, by path) are shown beside the fields they name.
 */
export function SchemaForm({
  schema,
  value,
  onChange,
  issues = [],
  refs = {},
  hidden = [],
  trailing = [],
  readOnly = [],
}: {
  schema: FormSchema;
  value: JsonValue;
  onChange: (next: JsonValue) => void;
  issues?: readonly Issue[];
  refs?: RefChoices;
  /** Top-level keys not shown (kept as they are): `$schema`. */
  hidden?: readonly string[];
  /** Top-level keys shown after the rest, in this order: a file's `source` and `sample`. */
  trailing?: readonly string[];
  /** Paths shown but not editable: an existing entry's `id`. */
  readOnly?: readonly string[];
}) {
  const root = fieldOf(schema, value);
  const context: Context = {
    value,
    change: (path, next) => onChange(setAt(value, path, next) ?? {}),
    replace: (path, next) => onChange(setAt(value, path, next) ?? {}),
    issues: issuesByField(root, issues),
    refs,
    hidden: new Set(hidden),
    trailing,
    readOnly: new Set(readOnly),
  };
  return <FieldView field={root} context={context} />;
}

function Issues({ path, context }: { path: FieldPath; context: Context }) {
  const found = context.issues.get(pathText(path));
  if (found === undefined) return null;
  return (
    <span class="field-issue" role="alert" data-path={pathText(path)}>
      {found.map((i) => i.message).join('; ')}
    </span>
  );
}

function Remove({ field, context }: { field: Field; context: Context }) {
  if (!field.removable) return null;
  return (
    <button
      type="button"
      class="remove"
      aria-label={`Remove ${field.label}`}
      title={`Remove ${field.label}`}
      onClick={() => context.change(field.path, undefined)}
    >
      ×
    </button>
  );
}

/** A leaf control with its label, its remove button and its issues. */
function Labelled({
  field,
  context,
  children,
  quiet = false,
}: {
  field: Field;
  context: Context;
  children: ComponentChildren;
  /** Named for assistive technology only: a union's value, labelled beside its picker. */
  quiet?: boolean;
}) {
  return (
    <div class={quiet ? 'form-field quiet' : 'form-field'} data-field={pathText(field.path)}>
      <label
        class={quiet ? 'visually-hidden' : 'field-label'}
        for={idOf(field.path)}
        title={field.description}
      >
        {field.label}
      </label>{' '}
      {children}
      <Remove field={field} context={context} />
      <Issues path={field.path} context={context} />
    </div>
  );
}

function nameOf(path: FieldPath): string {
  return pathText(path) || 'value';
}

/** The control's element id, for its label: one form per page. */
function idOf(path: FieldPath): string {
  return `field-${nameOf(path)}`;
}

function FieldView({
  field,
  context,
  quiet = false,
}: {
  field: Field;
  context: Context;
  quiet?: boolean;
}): preact.JSX.Element | null {
  const name = nameOf(field.path);
  const locked = context.readOnly.has(pathText(field.path));
  switch (field.control) {
    case 'const':
      return null;
    case 'text':
      return (
        <Labelled field={field} context={context} quiet={quiet}>
          <input
            type="text"
            id={idOf(field.path)}
            name={name}
            value={field.text}
            readOnly={locked}
            pattern={field.schema.pattern}
            onInput={(e) => context.change(field.path, e.currentTarget.value)}
          />
        </Labelled>
      );
    case 'number':
      return (
        <Labelled field={field} context={context} quiet={quiet}>
          <NumberInput
            field={field}
            name={name}
            onValue={(next) => context.change(field.path, next)}
          />
        </Labelled>
      );
    case 'boolean':
      return (
        <Labelled field={field} context={context} quiet={quiet}>
          <input
            type="checkbox"
            id={idOf(field.path)}
            name={name}
            checked={field.checked}
            onChange={(e) => context.change(field.path, e.currentTarget.checked)}
          />
        </Labelled>
      );
    case 'select':
      return (
        <Labelled field={field} context={context} quiet={quiet}>
          <select
            id={idOf(field.path)}
            name={name}
            value={String(field.selected)}
            onChange={(e) => {
              const i = Number(e.currentTarget.value);
              context.change(field.path, field.options[i] ?? null);
            }}
          >
            {field.selected < 0 && <option value="-1">{String(field.value)} (not allowed)</option>}
            {field.options.map((o, i) => (
              <option key={String(o)} value={String(i)}>
                {String(o)}
              </option>
            ))}
          </select>
        </Labelled>
      );
    case 'ref':
      return (
        <Labelled field={field} context={context} quiet={quiet}>
          <RefSelect
            elementId={idOf(field.path)}
            name={name}
            kind={field.refKind}
            id={field.text}
            context={context}
            onPick={(id) => context.change(field.path, id)}
          />
        </Labelled>
      );
    case 'json':
      return (
        <Labelled field={field} context={context} quiet={quiet}>
          <textarea
            id={idOf(field.path)}
            name={name}
            value={field.text}
            onInput={(e) => {
              const text = e.currentTarget.value;
              let next: JsonValue = text;
              try {
                next = JSON.parse(text) as JsonValue;
              } catch {
                // Kept as typed: the server names what is wrong with it.
              }
              context.change(field.path, next);
            }}
          />
        </Labelled>
      );
    case 'variant':
      return <VariantView field={field} context={context} />;
    case 'object':
      return <ObjectView field={field} context={context} />;
    case 'list':
      return (
        <Group field={field} context={context}>
          {field.items.map((item) => (
            <FieldView key={pathText(item.path)} field={item} context={context} />
          ))}
          {field.canAdd && (
            <button
              type="button"
              class="add"
              name={`${name}+`}
              onClick={() =>
                context.change([...field.path, field.items.length], defaultFor(field.itemSchema))
              }
            >
              Add to {field.label || 'list'}
            </button>
          )}
        </Group>
      );
    case 'tuple':
      return (
        <Group field={field} context={context} inline>
          {field.items.map((item) => (
            <FieldView key={pathText(item.path)} field={item} context={context} />
          ))}
        </Group>
      );
    case 'map':
      return <MapView field={field} context={context} />;
  }
}

/** A fieldset for a field of fields, with its legend, remove button and issues. */
function Group({
  field,
  context,
  children,
  inline = false,
}: {
  field: Field;
  context: Context;
  children: ComponentChildren;
  inline?: boolean;
}) {
  if (field.path.length === 0) return <div class="schema-form">{children}</div>;
  return (
    <fieldset class={inline ? 'form-group row' : 'form-group'} data-field={pathText(field.path)}>
      <legend title={field.description}>
        {field.label} <Remove field={field} context={context} />
      </legend>
      <Issues path={field.path} context={context} />
      {children}
    </fieldset>
  );
}

function ObjectView({
  field,
  context,
  bare = false,
}: {
  field: Extract<Field, { control: 'object' }>;
  context: Context;
  /** Its fields without a fieldset of their own: a union's written-out branch. */
  bare?: boolean;
}) {
  const top = field.path.length === 0;
  const rank = (key: unknown) => (top ? context.trailing.indexOf(String(key)) : -1);
  const shown = field.fields
    .filter((f) => !(top && context.hidden.has(String(f.path[0]))))
    .map((f, i) => ({ f, i }))
    .sort((a, b) => rank(a.f.path[0]) - rank(b.f.path[0]) || a.i - b.i)
    .map(({ f }) => f);
  const addable = field.addable.filter((a) => !(top && context.hidden.has(a.key)));
  const body = (
    <>
      {shown.map((f) => (
        <FieldView key={pathText(f.path)} field={f} context={context} />
      ))}
      {addable.length > 0 && (
        <p class="addable">
          {addable.map((a) => (
            <button
              type="button"
              class="add"
              key={a.key}
              name={`${pathText([...field.path, a.key])}+`}
              onClick={() => {
                const sub = field.schema.properties?.[a.key] ?? {};
                context.change([...field.path, a.key], defaultFor(sub));
              }}
            >
              + {a.label}
            </button>
          ))}
        </p>
      )}
    </>
  );
  if (bare) return body;
  return (
    <Group field={field} context={context}>
      {top && <Issues path={field.path} context={context} />}
      {body}
    </Group>
  );
}

function VariantView({
  field,
  context,
}: {
  field: Extract<Field, { control: 'variant' }>;
  context: Context;
}) {
  const picker = (
    <select
      name={`${nameOf(field.path)}?`}
      aria-label={`${field.label}: which`}
      value={String(field.chosen)}
      onChange={(e) => {
        const chosen = field.variants[Number(e.currentTarget.value)];
        if (chosen !== undefined) context.replace(field.path, defaultFor(chosen.schema));
      }}
    >
      {field.variants.map((v, i) => (
        <option key={v.label} value={String(i)}>
          {v.label}
        </option>
      ))}
    </select>
  );
  const inner = field.field;
  // A branch that is one value (an id, a number) sits beside the picker; a written-out branch
  // (an object) opens below it.
  if (inner.control === 'object' || inner.control === 'list' || inner.control === 'map') {
    return (
      <fieldset class="form-group variant" data-field={pathText(field.path)}>
        <legend title={field.description}>
          {field.label} {picker} <Remove field={field} context={context} />
        </legend>
        <Issues path={field.path} context={context} />
        {inner.control === 'object' ? (
          <ObjectView field={inner} context={context} bare />
        ) : (
          <FieldView field={{ ...inner, label: '', removable: false }} context={context} />
        )}
      </fieldset>
    );
  }
  return (
    <div class="form-field variant" data-field={pathText(field.path)}>
      <span class="field-label">{field.label}</span> {picker}{' '}
      {inner.control !== 'const' && (
        <FieldView field={{ ...inner, removable: false }} context={context} quiet />
      )}
      <Remove field={field} context={context} />
      {/* A one-value branch shows its own issues beside its control. */}
      {inner.control === 'const' && <Issues path={field.path} context={context} />}
    </div>
  );
}

function MapView({
  field,
  context,
}: {
  field: Extract<Field, { control: 'map' }>;
  context: Context;
}) {
  const [key, setKey] = useState('');
  const keyRef = field.keyField.control === 'ref' ? field.keyField.refKind : undefined;
  const taken = new Set(field.entries.map((e) => e.key));
  const current = context.value;
  const mapValue = field.path.reduce<JsonValue | undefined>(
    (v, p) =>
      v !== null && typeof v === 'object' ? (v as Record<string, JsonValue>)[p] : undefined,
    current,
  );
  const add = () => {
    if (key === '' || taken.has(key)) return;
    context.change([...field.path, key], defaultFor(field.valueSchema));
    setKey('');
  };
  return (
    <Group field={field} context={context}>
      {field.entries.map(({ key: k, field: f }) => (
        <div class="map-entry" key={k}>
          {keyRef === undefined ? (
            <input
              type="text"
              aria-label={`${field.label}: name of ${k}`}
              value={k}
              onChange={(e) =>
                context.replace(field.path, renameKey(mapValue, k, e.currentTarget.value))
              }
            />
          ) : (
            <RefSelect
              label={`${field.label}: which`}
              name={`${nameOf(f.path)}#`}
              kind={keyRef}
              id={k}
              context={context}
              onPick={(id) => context.replace(field.path, renameKey(mapValue, k, id))}
            />
          )}
          <FieldView field={f} context={context} />
        </div>
      ))}
      <div class="map-add">
        {keyRef === undefined ? (
          <input
            type="text"
            name={`${nameOf(field.path)}+name`}
            aria-label={`New ${field.label} name`}
            value={key}
            onInput={(e) => setKey(e.currentTarget.value)}
          />
        ) : (
          <RefSelect
            label={`New ${field.label} entry`}
            name={`${nameOf(field.path)}+name`}
            kind={keyRef}
            id={key}
            context={context}
            onPick={setKey}
          />
        )}
        <button
          type="button"
          class="add"
          name={`${nameOf(field.path)}+`}
          disabled={key === '' || taken.has(key)}
          onClick={add}
        >
          Add to {field.label}
        </button>
      </div>
    </Group>
  );
}

/** The entries of a kind to pick from; an id the library does not have is shown as missing. */
function RefSelect({
  elementId,
  label,
  name,
  kind,
  id,
  context,
  onPick,
}: {
  elementId?: string;
  /** Its accessible name, where no label element names it. */
  label?: string;
  name: string;
  kind: string;
  id: string;
  context: Context;
  onPick: (id: string) => void;
}) {
  const choices = context.refs[kind] ?? [];
  const known = id === '' || choices.some((c) => c.id === id);
  return (
    <select
      id={elementId}
      aria-label={label}
      name={name}
      data-ref={kind}
      value={id}
      onChange={(e) => onPick(e.currentTarget.value)}
    >
      <option value="">— choose a {kind.split('/').at(-1)} —</option>
      {!known && (
        <option value={id}>
          {id} (missing: no such {kind})
        </option>
      )}
      {choices.map((c) => (
        <option key={c.id} value={c.id}>
          {c.name === c.id ? c.id : `${c.name} (${c.id})`}
        </option>
      ))}
    </select>
  );
}

/** A number box's text as JSON: the number when it is one, else the text as typed. */
function numberOrText(text: string): JsonValue {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? n : text;
}

/**
 * A number box that keeps what is being typed (`1.`, `-`) while the draft holds the number it
 * reads as so far; a change from outside (a row removed, a branch picked) replaces the text.
 */
function NumberInput({
  field,
  name,
  onValue,
}: {
  field: Extract<Field, { control: 'number' }>;
  name: string;
  onValue: (next: JsonValue) => void;
}) {
  const [text, setText] = useState(field.text);
  useEffect(() => {
    if (numberOrText(text) !== numberOrText(field.text)) setText(field.text);
    // Only the draft's value is followed: the typed text is this box's own.
  }, [field.text]);
  const attributes = field.integer
    ? { type: 'number', step: field.step ?? 1, min: field.min, max: field.max }
    : // A decimal being typed ("1.") is not a number yet: a text box keeps it.
      { type: 'text', inputMode: 'decimal' as const };
  return (
    <input
      {...attributes}
      id={idOf(field.path)}
      name={name}
      value={text}
      onInput={(e) => {
        const typed = e.currentTarget.value;
        setText(typed);
        onValue(numberOrText(typed));
      }}
    />
  );
}

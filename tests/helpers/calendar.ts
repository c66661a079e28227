/** iCalendar text read back by ical.js, for the calendar suites. */
import ICAL from "ical.js";

/** Each event's date and its reminders' triggers, as ical.js reads them. */
export function eventAlarms(text: string) {
  return new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent").map((vevent) => {
    const alarms = vevent.getAllSubcomponents("valarm");
    return {
      date: new ICAL.Event(vevent).startDate.toString(),
      alarms: alarms.map((alarm) => ({
        action: alarm.getFirstPropertyValue("action") as string,
        description: alarm.getFirstPropertyValue("description") as string,
        trigger: (alarm.getFirstPropertyValue("trigger") as ICAL.Duration).toString(),
      })),
    };
  });
}
